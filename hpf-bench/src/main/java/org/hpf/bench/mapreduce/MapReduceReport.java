package org.hpf.bench.mapreduce;

import java.util.Locale;
import java.util.Map;

/** The MapReduce comparison as a markdown table. */
final class MapReduceReport {
  private MapReduceReport() {}

  @SuppressWarnings("unchecked")
  static String markdown(Map<String, Object> results) {
    Map<String, Object> har = (Map<String, Object>) results.get("har");
    Map<String, Object> hpf = (Map<String, Object>) results.get("hpf");
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT, "%,d files uploaded in %.1f s%n%n",
        ((Number) results.get("files")).longValue(),
        ((Number) results.get("uploadMillis")).longValue() / 1000.0));
    md.append("| | HAR (`hadoop archive`) | hpf (`JobDriver`) |\n|---|---:|---:|\n");
    row(md, "job time (s)", har, hpf, "totalMillis", 1000.0, "%.1f");
    row(md, "NameNode objects of the archive", har, hpf, "namenodeObjects", 1, "%,.0f");
    row(md, "... with the sources kept", har, hpf, "objectsWithSourcesKept", 1, "%,.0f");
    row(md, "archive objects / plain files' objects", har, hpf, "objectsFractionOfPlain", 1,
        "%.5f");
    row(md, "bytes stored (with replication)", har, hpf, "bytesStored", 1, "%,.0f");
    row(md, "warm get p50 (µs)", har, hpf, "warmP50Micros", 1, "%,.0f");
    row(md, "warm get p99 (µs)", har, hpf, "warmP99Micros", 1, "%,.0f");
    row(md, "cold get p50 (µs)", har, hpf, "coldP50Micros", 1, "%,.0f");
    row(md, "cold get p99 (µs)", har, hpf, "coldP99Micros", 1, "%,.0f");
    md.append(String.format(Locale.ROOT, "%nhpf: listing %.1f s, job %.1f s, %s map tasks;"
            + " delete-sources removed %,d files in %.1f s, freeing %,d NameNode objects"
            + " (%,d left below the sources).%n",
        ((Number) hpf.get("listingMillis")).longValue() / 1000.0,
        ((Number) hpf.get("jobMillis")).longValue() / 1000.0, hpf.get("maps"),
        ((Number) hpf.get("removedFiles")).longValue(),
        ((Number) hpf.get("removeSourcesMillis")).longValue() / 1000.0,
        ((Number) hpf.get("objectsFreedByRemoval")).longValue(),
        ((Number) hpf.get("sourceObjectsLeft")).longValue()));
    return md.toString();
  }

  private static void row(StringBuilder md, String label, Map<String, Object> har,
      Map<String, Object> hpf, String key, double divisor, String format) {
    md.append("| ").append(label).append(" | ")
        .append(String.format(Locale.ROOT, format, ((Number) har.get(key)).doubleValue()
            / divisor))
        .append(" | ")
        .append(String.format(Locale.ROOT, format, ((Number) hpf.get(key)).doubleValue()
            / divisor))
        .append(" |\n");
  }
}
