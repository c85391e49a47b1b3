package org.hpf.cli;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.WriteSettings;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveSummary.LayerSummary;
import org.hpf.internal.read.ArchiveSummary;
import org.hpf.internal.read.HpfReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf info}: what an archive holds and what it saves the NameNode. */
@Command(name = "info", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Describes the archive's current generation: format version, generation,"
        + " files, distinct owner, group and mode triples, bytes (original and stored), parts,"
        + " index files, buckets, global depth, bits per key of the perfect hash functions, index"
        + " bytes per file, index layers, and the NameNode objects (inodes and blocks) the"
        + " archive uses against the same files stored plainly, with the NameNode memory that"
        + " saves (" + NameNodeModel.OBJECT_BYTES + " bytes per object, Shvachko's model), and"
        + " how much of the index the HDFS cache holds.",
        "Reads the manifest and directories, lists the archive directory, and streams the names"
            + " once (for the plain-files count)."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class InfoCommand extends HpfSubcommand {
  @Option(names = "--json", description = "Print the same fields as one JSON object.")
  private boolean json;

  @Option(names = "--cache-pool", paramLabel = "POOL",
      description = "HDFS cache pool whose directives count as pinning (default: "
          + "hpf-{owner}, the pool of the archive's owner).")
  private String cachePool;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Override
  protected int run() throws Exception {
    Map<String, Object> info;
    try (HpfReader reader = openArchive(archive)) {
      Path path = resolve(archive);
      FileSystem fs = fileSystem(path);
      ArchiveSummary summary = ArchiveSummary.of(reader, new HadoopStorage(fs, path, (short) 0));
      NameNodeModel.Objects archiveObjects = NameNodeModel.ofArchive(fs, path);
      long plainBlockSize = fs.getDefaultBlockSize(path);
      NameNodeModel.Objects plainObjects;
      try (Stream<NameEntry> entries = reader.listEntries()) {
        plainObjects = NameNodeModel.asPlainFiles(entries.iterator(), plainBlockSize);
      }
      info = describe(summary, archiveObjects, plainObjects, plainBlockSize,
          CacheCommand.info(fs, path, cachePool != null ? cachePool
              : WriteSettings.from(configuration()).cachePool()));
    }
    if (json) {
      out().print(Json.write(info));
    } else {
      print(out(), info);
    }
    return ExitCodes.OK;
  }

  /** Every field, in the order and with the names of the JSON output. */
  static Map<String, Object> describe(ArchiveSummary s, NameNodeModel.Objects archive,
      NameNodeModel.Objects plain, long plainBlockSize, Map<String, Object> cache) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("archive", s.location());
    m.put("formatVersion", s.formatVersion());
    m.put("archiveId", s.manifest().archiveId().toString());
    m.put("generation", s.generation());
    m.put("committed", Instant.ofEpochMilli(s.manifest().commitTimeMillis()).toString());
    m.put("files", s.files());
    m.put("accessClasses", s.accessClasses());
    m.put("originalBytes", s.originalBytes());
    m.put("storedBytes", s.storedBytes());
    m.put("parts", s.parts());
    m.put("partBytes", s.partBytes());
    m.put("liveBytes", s.liveBytes());
    m.put("indexFiles", s.indexFiles());
    m.put("indexBytes", s.indexBytes());
    m.put("indexBytesPerFile", s.indexBytesPerFile());
    m.put("buckets", s.buckets());
    m.put("bucketCapacity", s.manifest().bucketCapacity());
    m.put("globalDepth", s.globalDepth());
    m.put("functionBitsPerKey", s.functionBitsPerKey());
    List<Object> layers = new ArrayList<>();
    for (LayerSummary layer : s.layers()) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("directory", layer.directoryFile());
      l.put("records", layer.records());
      l.put("buckets", layer.buckets());
      l.put("indexFiles", layer.indexFiles());
      l.put("globalDepth", layer.globalDepth());
      l.put("indexBytes", layer.indexBytes());
      l.put("functionBitsPerKey", layer.functionBitsPerKey());
      layers.add(l);
    }
    m.put("indexLayers", layers);
    m.put("namesSegments", s.namesSegments());
    m.put("blockSize", s.manifest().blockSize());
    m.put("partSize", s.manifest().partSize());

    Map<String, Object> nn = new LinkedHashMap<>();
    nn.put("objectBytes", NameNodeModel.OBJECT_BYTES);
    nn.put("model", NameNodeModel.MODEL);
    nn.put("archive", objects(archive));
    Map<String, Object> plainMap = objects(plain);
    plainMap.put("blockSize", plainBlockSize);
    nn.put("plainFiles", plainMap);
    nn.put("objectsSaved", plain.total() - archive.total());
    nn.put("memorySavedBytes", plain.memoryBytes() - archive.memoryBytes());
    nn.put("ratio", archive.total() == 0 ? 0.0 : (double) plain.total() / archive.total());
    m.put("nameNode", nn);

    m.put("cache", cache);
    return m;
  }

  private static Map<String, Object> objects(NameNodeModel.Objects o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("inodes", o.inodes());
    m.put("blocks", o.blocks());
    m.put("objects", o.total());
    m.put("memoryBytes", o.memoryBytes());
    return m;
  }

  @SuppressWarnings("unchecked")
  static void print(PrintStream out, Map<String, Object> m) {
    long files = (Long) m.get("files");
    long original = (Long) m.get("originalBytes");
    long stored = (Long) m.get("storedBytes");
    line(out, "archive", m.get("archive"));
    line(out, "format version", m.get("formatVersion"));
    line(out, "archive id", m.get("archiveId"));
    line(out, "generation", m.get("generation") + " (committed " + m.get("committed") + ")");
    line(out, "files", Units.count(files));
    int accessClasses = (Integer) m.get("accessClasses");
    line(out, "owners and modes", accessClasses == 0 ? "none recorded (older format)"
        : accessClasses + " distinct owner, group and mode triple(s)");
    line(out, "bytes", String.format(Locale.ROOT, "%s original (%s bytes), %s stored (%s bytes,"
        + " %.0f%% of original)", Units.bytes(original), Units.count(original),
        Units.bytes(stored), Units.count(stored),
        original == 0 ? 100.0 : 100.0 * stored / original));
    long partBytes = (Long) m.get("partBytes");
    line(out, "parts", String.format(Locale.ROOT, "%d (%s, %.0f%% live)", m.get("parts"),
        Units.bytes(partBytes), partBytes == 0 ? 100.0
            : 100.0 * (Long) m.get("liveBytes") / partBytes));
    line(out, "index files", m.get("indexFiles") + " (" + Units.bytes((Long) m.get("indexBytes"))
        + ")");
    line(out, "index bytes per file", String.format(Locale.ROOT, "%.1f",
        (Double) m.get("indexBytesPerFile")));
    line(out, "buckets", m.get("buckets") + " (capacity " + Units.count(
        ((Integer) m.get("bucketCapacity")).longValue()) + " names each)");
    line(out, "global depth", m.get("globalDepth"));
    line(out, "bits per key", String.format(Locale.ROOT, "%.2f (perfect hash functions, as"
        + " stored)", (Double) m.get("functionBitsPerKey")));
    List<Object> layers = (List<Object>) m.get("indexLayers");
    line(out, "index layers", layers.size());
    for (int i = 0; i < layers.size(); i++) {
      Map<String, Object> l = (Map<String, Object>) layers.get(i);
      line(out, "  layer " + i, String.format(Locale.ROOT, "%s: %s records, %d buckets, %d index"
              + " files, global depth %d, %.2f bits per key",
          l.get("directory") == null ? "directory in the manifest" : l.get("directory"),
          Units.count((Long) l.get("records")), l.get("buckets"), l.get("indexFiles"),
          l.get("globalDepth"), (Double) l.get("functionBitsPerKey")));
    }
    line(out, "names segments", m.get("namesSegments"));
    line(out, "block size", Units.bytes((Long) m.get("blockSize")) + " (part size "
        + Units.bytes((Long) m.get("partSize")) + ")");

    Map<String, Object> nn = (Map<String, Object>) m.get("nameNode");
    Map<String, Object> a = (Map<String, Object>) nn.get("archive");
    Map<String, Object> p = (Map<String, Object>) nn.get("plainFiles");
    out.printf(Locale.ROOT, "%-22s %12s %12s %12s %12s%n", "NameNode", "inodes", "blocks",
        "objects", "memory");
    objectsLine(out, "  this archive", a);
    objectsLine(out, "  as plain files", p);
    out.printf(Locale.ROOT, "%-22s %12s %12s %12s %12s%n", "  saved", "", "",
        Units.count((Long) nn.get("objectsSaved")), Units.bytes((Long) nn.get("memorySavedBytes")));
    double ratio = (Double) nn.get("ratio");
    line(out, "  ratio", ratio >= 1
        ? String.format(Locale.ROOT, "the archive uses %.1fx fewer objects", ratio)
        : String.format(Locale.ROOT, "the archive uses %.1fx more objects (too few files to pay"
            + " off)", 1 / ratio));
    line(out, "  model", nn.get("model") + "; plain files: an inode per file, per directory and"
        + " for the root, a block per started " + Units.bytes((Long) p.get("blockSize"))
        + " of each non-empty file");
    Map<String, Object> cache = (Map<String, Object>) m.get("cache");
    if (cache.containsKey("bytesNeeded")) {
      line(out, "cache pinning", String.format(Locale.ROOT, "%s (pool %s: %s of %s cached, %s of"
              + " %s files with a directive)", cache.get("state"), cache.get("pool"),
          Units.bytes((Long) cache.get("bytesCached")), Units.bytes((Long) cache.get("bytesNeeded")),
          cache.get("directives"), cache.get("filesWanted")));
    } else {
      line(out, "cache pinning", cache.get("state"));
    }
  }

  private static void objectsLine(PrintStream out, String label, Map<String, Object> o) {
    out.printf(Locale.ROOT, "%-22s %12s %12s %12s %12s%n", label,
        Units.count((Long) o.get("inodes")), Units.count((Long) o.get("blocks")),
        Units.count((Long) o.get("objects")), Units.bytes((Long) o.get("memoryBytes")));
  }

  private static void line(PrintStream out, String label, Object value) {
    out.printf(Locale.ROOT, "%-22s %s%n", label, value);
  }
}
