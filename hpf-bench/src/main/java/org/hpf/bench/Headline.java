package org.hpf.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.hpf.bench.Results.AccessResult;
import org.hpf.bench.Results.BatchGetResult;
import org.hpf.bench.Results.CreationPoint;
import org.hpf.bench.Results.StoreCount;
import org.hpf.bench.Results.ThroughputResult;
import org.hpf.bench.experiments.ExperimentResult;

/**
 * The headline of a run: HPF against each other system, one row per measure, then the
 * project's targets, each met or missed with its ratio. Every figure comes from one run's
 * results (and, when given, from the scan experiment run beside it), so the page that shows it
 * can be regenerated rather than copied by hand.
 */
public final class Headline {
  private static final String HPF = "HPF";
  private static final String CACHED = "HPF+cache";
  private static final String HDFS = "HDFS";

  private final Results r;
  private final ExperimentResult scan;
  private final List<String> others;

  private Headline(Results r, ExperimentResult scan) {
    this.r = r;
    this.scan = scan;
    this.others = Report.systems(r).stream()
        .filter(s -> !s.equals(HPF) && !s.equals(CACHED)).toList();
  }

  /** The headline of {@code r}, with the scan rows of {@code scan} when it is not null. */
  public static String markdown(Results r, ExperimentResult scan) {
    return new Headline(r, scan).render();
  }

  private String render() {
    if (r.creationOf(HPF, largest()) == null && r.accessOf(HPF, "warm") == null) {
      return "";
    }
    StringBuilder md = new StringBuilder("## Headline\n\n");
    md.append("HPF against each other system, measured in this run: \"N× faster\" is the"
        + " other's time ÷ HPF's, \"N× slower\" HPF's ÷ the other's.\n\n");
    header(md, "", others, "---|");
    for (int n : new TreeSet<>(r.creation.stream().map(CreationPoint::files).toList())
        .descendingSet()) {
      row(md, String.format(Locale.ROOT, "creation, %,d files", n), other -> {
        CreationPoint h = r.creationOf(HPF, n);
        CreationPoint o = r.creationOf(other, n);
        return h == null || o == null ? "" : time(h.millis() * 1e3, o.millis() * 1e3);
      });
    }
    getRow(md, "cold get p50", HPF, "cold", AccessResult::p50Micros);
    getRow(md, "warm get p50", HPF, "warm", AccessResult::p50Micros);
    getRow(md, "warm get p99", HPF, "warm", AccessResult::p99Micros);
    getRow(md, "warm get p50, record cache", CACHED, "warm", AccessResult::p50Micros);
    getRow(md, "warm get p99, record cache", CACHED, "warm", AccessResult::p99Micros);
    row(md, "NameNode objects", other -> {
      StoreCount h = r.storeOf(HPF);
      StoreCount o = r.storeOf(other);
      return h == null || o == null ? "" : count(h.objects(), o.objects());
    });
    row(md, "size (of the original)", other -> {
      StoreCount h = r.storeOf(HPF);
      StoreCount o = r.storeOf(other);
      return h == null || o == null ? "" : String.format(Locale.ROOT, "%.2f vs %.2f",
          h.sizeRatio(), o.sizeRatio());
    });
    for (String op : List.of("get", "stat", "list")) {
      for (String system : List.of(HPF, CACHED)) {
        ThroughputResult h = throughput(system, op, nnThreads());
        ThroughputResult o = throughput(HDFS, op, nnThreads());
        if (h != null && o != null) {
          row(md, String.format(Locale.ROOT, "%s: %s, %d threads", system, op, nnThreads()),
              other -> other.equals(HDFS) ? rate(h.opsPerSec(), o.opsPerSec()) : "");
        }
      }
    }
    md.append('\n');
    scaling(md);
    batches(md);
    scans(md);
    targets(md);
    return md.toString();
  }

  /** A table's first two lines: {@code first} and the columns, then their alignment. */
  private static void header(StringBuilder md, String first, Iterable<?> columns,
      String alignment) {
    md.append(first.isEmpty() ? "| |" : "| " + first + " |");
    columns.forEach(c -> md.append(' ').append(c).append(" |"));
    md.append("\n|---|");
    columns.forEach(c -> md.append(alignment));
    md.append('\n');
  }

  private void getRow(StringBuilder md, String label, String system, String mode,
      ToDoubleFunction<AccessResult> micros) {
    AccessResult h = r.accessOf(system, mode);
    if (h == null) {
      return;
    }
    row(md, label, other -> {
      AccessResult o = r.accessOf(other, mode);
      return o == null ? "" : time(micros.applyAsDouble(h), micros.applyAsDouble(o));
    });
  }

  private void row(StringBuilder md, String label, java.util.function.Function<String, String>
      cell) {
    md.append("| ").append(label).append(" |");
    others.forEach(o -> md.append(' ').append(cell.apply(o)).append(" |"));
    md.append('\n');
  }

  /** Gets per second of HPF, HPF with its record cache and HDFS at each thread count. */
  private void scaling(StringBuilder md) {
    List<ThroughputResult> gets = r.throughput.stream().filter(t -> t.op().equals("get")
        && t.source().equals("hpf-bench")).toList();
    if (gets.isEmpty()) {
      return;
    }
    TreeSet<Integer> threads = new TreeSet<>(gets.stream().map(ThroughputResult::threads)
        .toList());
    md.append("Gets per second over threads (one shared reader; HDFS: open and read):\n\n");
    header(md, "system", threads, "---:|");
    for (String system : List.of(HPF, CACHED, HDFS)) {
      if (gets.stream().noneMatch(g -> g.system().equals(system))) {
        continue;
      }
      md.append("| ").append(system).append(" |");
      for (int t : threads) {
        ThroughputResult g = throughput(system, "get", t);
        md.append(g == null ? " |" : String.format(Locale.ROOT, " %,.0f |", g.opsPerSec()));
      }
      md.append('\n');
    }
    md.append('\n');
  }

  private void batches(StringBuilder md) {
    if (r.batchGets.isEmpty()) {
      return;
    }
    md.append("Batch reads, warm (median of the repetitions' totals):\n\n| names | way | ms |"
        + " HPF one by one ÷ this |\n|---|---|---:|---:|\n");
    for (BatchGetResult b : r.batchGets) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %,.1f | %.1f |%n", b.selection(),
          b.way(), b.medianMillis(), oneByOne(b.selection()) / b.medianMillis()));
    }
    md.append('\n');
  }

  private double oneByOne(String selection) {
    return r.batchGets.stream().filter(b -> b.selection().equals(selection)
        && b.way().equals("HPF one by one")).mapToDouble(BatchGetResult::medianMillis)
        .findFirst().orElse(Double.NaN);
  }

  private void scans(StringBuilder md) {
    List<ExperimentResult.Point> points = scanPoints();
    if (points.isEmpty()) {
      return;
    }
    md.append(String.format(Locale.ROOT, "Scans of %,d small files (`hpf-bench exp scan`, the"
        + " same job counting lines and bytes; local job runner):%n%n| input | seconds |"
        + " DataNode block reads | bytes read | ÷ HpfInputFormat |%n|---|---:|---:|---:|---:|%n",
        (long) points.get(0).x()));
    double hpf = scanSeconds("hpf, HpfInputFormat");
    for (ExperimentResult.Point p : points) {
      md.append(String.format(Locale.ROOT, "| %s | %.1f | %,d | %s | %.1f |%n", p.series(),
          p.value(), ((Number) p.details().get("dataNodeBlockReads")).longValue(),
          Report.bytes(((Number) p.details().get("dataNodeBytesRead")).longValue()),
          p.value() / hpf));
    }
    md.append('\n');
  }

  private List<ExperimentResult.Point> scanPoints() {
    return scan == null ? List.of()
        : scan.points.stream().filter(p -> p.panel().equals("scan")).toList();
  }

  private double scanSeconds(String series) {
    ExperimentResult.Point p = scanPoint(series);
    return p == null ? Double.NaN : p.value();
  }

  private ExperimentResult.Point scanPoint(String series) {
    return scanPoints().stream().filter(p -> p.series().equals(series)).findFirst()
        .orElse(null);
  }

  private static double bytesRead(ExperimentResult.Point p) {
    return p == null ? Double.NaN
        : ((Number) p.details().get("dataNodeBytesRead")).doubleValue();
  }

  /** The targets, each with what this run measured and whether it met it. */
  private void targets(StringBuilder md) {
    List<String[]> rows = new ArrayList<>();
    AccessResult warm = r.accessOf(HPF, "warm");
    AccessResult cached = r.accessOf(CACHED, "warm");
    AccessResult hdfsWarm = r.accessOf(HDFS, "warm");
    if (warm != null && hdfsWarm != null) {
      atMost(rows, "warm get p50 at most 0.5× HDFS", warm.p50Micros() / hdfsWarm.p50Micros(),
          0.5);
      atMost(rows, "warm get p99 no worse than HDFS", warm.p99Micros() / hdfsWarm.p99Micros(),
          1);
      if (cached != null) {
        atMost(rows, "the same, record cache: p50 at most 0.5× HDFS",
            cached.p50Micros() / hdfsWarm.p50Micros(), 0.5);
        atMost(rows, "the same, record cache: p99 no worse than HDFS",
            cached.p99Micros() / hdfsWarm.p99Micros(), 1);
      }
    }
    AccessResult cold = r.accessOf(HPF, "cold");
    AccessResult hdfsCold = r.accessOf(HDFS, "cold");
    if (cold != null && hdfsCold != null) {
      atMost(rows, "a new client's first get (cold p50) at most 1.25× HDFS",
          cold.p50Micros() / hdfsCold.p50Micros(), 1.25);
    }
    for (String op : List.of("stat", "list")) {
      ThroughputResult h = throughput(HPF, op, nnThreads());
      ThroughputResult o = throughput(HDFS, op, nnThreads());
      if (h != null && o != null) {
        atLeast(rows, op + " at least as fast as HDFS (ops/s ÷ HDFS's)",
            h.opsPerSec() / o.opsPerSec(), 1);
      }
    }
    int n = largest();
    CreationPoint created = r.creationOf(HPF, n);
    CreationPoint uploaded = r.creationOf(HDFS, n);
    if (created != null && uploaded != null) {
      atLeast(rows, String.format(Locale.ROOT, "creating %,d files at least 50× faster than"
          + " uploading them one by one", n), (double) uploaded.millis() / created.millis(), 50);
    }
    if (created != null && created.details().get("createOverFloor") instanceof Number f) {
      atMost(rows, String.format(Locale.ROOT, "creating %,d files at most %.1f× the floor (one"
          + " read of the sources and one plain file of the archive's bytes)", n,
          CreationPhases.TARGET), f.doubleValue(), CreationPhases.TARGET);
    }
    StoreCount hpf = r.storeOf(HPF);
    StoreCount plain = r.storeOf(HDFS);
    if (hpf != null && plain != null) {
      atMost(rows, "about 1/1000 of the NameNode objects of plain files",
          (double) hpf.objects() / plain.objects(), 1e-3);
    }
    if (created != null && created.details().get("indexBytesPerFile") instanceof Number b) {
      atMost(rows, "at most 40 bytes of index per file (bytes, not a ratio)", b.doubleValue(),
          40);
    }
    for (String other : List.of("MapFile", "HAR")) {
      AccessResult o = r.accessOf(other, "warm");
      if (warm != null && o != null) {
        atLeast(rows, "warm get far faster than " + other + " (" + other + "'s p50 ÷ HPF's,"
            + " at least 5)", o.p50Micros() / warm.p50Micros(), 5);
      }
    }
    for (BatchGetResult b : r.batchGets) {
      if (b.way().equals("HPF batch")) {
        double least = b.selection().startsWith("directory") ? 10 : 3;
        atLeast(rows, "batch read of " + b.selection() + " at least " + (int) least
            + "× faster than one by one", oneByOne(b.selection()) / b.medianMillis(), least);
      }
    }
    if (!scanPoints().isEmpty()) {
      double hpfScan = scanSeconds("hpf, HpfInputFormat");
      atLeast(rows, "scan through HpfInputFormat at least 10× faster than TextInputFormat over"
          + " the plain files", scanSeconds("plain files, TextInputFormat") / hpfScan, 10);
      atLeast(rows, "scan through HpfInputFormat no slower than the SequenceFile",
          scanSeconds("SequenceFile") / hpfScan, 1);
      ExperimentResult.Point viaHpf = scanPoint("hpf (hpf://), CombineTextInputFormat");
      ExperimentResult.Point direct = scanPoint("hpf, HpfInputFormat");
      if (viaHpf != null) {
        atMost(rows, "CombineTextInputFormat over hpf:// at most 3× HpfInputFormat's time",
            viaHpf.value() / hpfScan, 3);
        atMost(rows, "CombineTextInputFormat over hpf:// at most 1.5× the bytes HpfInputFormat"
            + " reads (the stored bytes)", bytesRead(viaHpf) / bytesRead(direct), 1.5);
      }
    }
    md.append("Targets:\n\n| target | measured | |\n|---|---:|---|\n");
    rows.forEach(row -> md.append("| ").append(row[0]).append(" | ").append(row[1])
        .append(" | ").append(row[2]).append(" |\n"));
    md.append('\n');
  }

  private static void atMost(List<String[]> rows, String target, double measured,
      double bound) {
    rows.add(new String[] {target, number(measured), measured <= bound ? "met" : "**missed**"});
  }

  private static void atLeast(List<String[]> rows, String target, double measured,
      double bound) {
    rows.add(new String[] {target, number(measured), measured >= bound ? "met" : "**missed**"});
  }

  private static String number(double value) {
    return value < 0.01 ? String.format(Locale.ROOT, "1/%,.0f", 1 / value)
        : String.format(Locale.ROOT, "%.3g", value);
  }

  private int largest() {
    return r.creation.stream().mapToInt(CreationPoint::files).max().orElse(0);
  }

  private int nnThreads() {
    return r.config.get("nnThreads") instanceof Number t ? t.intValue() : 4;
  }

  private ThroughputResult throughput(String system, String op, int threads) {
    return r.throughput.stream().filter(t -> t.system().equals(system) && t.op().equals(op)
        && t.threads() == threads && t.source().equals("hpf-bench")).findFirst().orElse(null);
  }

  /** HPF's time against another's, both in microseconds. */
  private static String time(double hpfMicros, double otherMicros) {
    String values = "(" + duration(hpfMicros) + " vs " + duration(otherMicros) + ")";
    return hpfMicros <= otherMicros
        ? String.format(Locale.ROOT, "%.3g× faster %s", otherMicros / hpfMicros, values)
        : String.format(Locale.ROOT, "**%.3g× slower** %s", hpfMicros / otherMicros, values);
  }

  private static String count(long hpf, long other) {
    String values = String.format(Locale.ROOT, "(%,d vs %,d)", hpf, other);
    if (hpf == other) {
      return String.format(Locale.ROOT, "the same (%,d)", hpf);
    }
    return hpf < other
        ? String.format(Locale.ROOT, "%,.0f× fewer %s", (double) other / Math.max(1, hpf), values)
        : String.format(Locale.ROOT, "**%.3g× more** %s", (double) hpf / Math.max(1, other),
            values);
  }

  private static String rate(double hpf, double other) {
    String values = String.format(Locale.ROOT, "(%,.0f vs %,.0f)", hpf, other);
    return hpf >= other
        ? String.format(Locale.ROOT, "%.3g× the ops/s %s", hpf / other, values)
        : String.format(Locale.ROOT, "**%.3g× fewer ops/s** %s", other / hpf, values);
  }

  private static String duration(double micros) {
    if (micros >= 1e6) {
      return String.format(Locale.ROOT, "%,.1f s", micros / 1e6);
    }
    return micros >= 1e3 ? String.format(Locale.ROOT, "%.3g ms", micros / 1e3)
        : String.format(Locale.ROOT, "%.0f µs", micros);
  }
}
