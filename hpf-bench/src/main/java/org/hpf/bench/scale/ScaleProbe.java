package org.hpf.bench.scale;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.DatasetGenerator.Generated;
import org.hpf.bench.DatasetGenerator;
import org.hpf.bench.Results;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * One archive size of the scale suite, in a JVM of its own so the heap it reports is the
 * archive's alone: writes {@code files} generated members through the writer API, then
 * verifies the archive, lists it, opens a reader and times random gets, recording time and
 * heap per phase. Started by {@link ScaleRun} as {@code ScaleProbe <spec.json> <result.json>}.
 */
public final class ScaleProbe {
  /** What to measure; written by the parent as JSON. */
  public record Spec(String fileSystem, String archive, int files, long seed, int minSize,
      int maxSize, int threads, int gets, int coldGets, String scratch, boolean verify,
      long blockSize, short replication) {}

  private static final int WARM_UP_FILES = 20_000;

  private final Spec spec;
  private final DatasetGenerator generator;
  private final Configuration conf = new Configuration();
  private final Map<String, Object> result = new LinkedHashMap<>();
  private final PrintStream log = System.err;
  private final HeapWatch heap = new HeapWatch();
  /** Members in the archive once built and appended to. */
  private int total;

  private ScaleProbe(Spec spec) {
    this.spec = spec;
    this.generator = new DatasetGenerator(spec.seed(), spec.minSize(), spec.maxSize(),
        DatasetGenerator.SizeDistribution.LOG_UNIFORM, 1, DatasetGenerator.Content.TEXT);
  }

  public static void main(String[] args) throws Exception {
    Spec spec = Results.mapper().readValue(new File(args[0]), Spec.class);
    ScaleProbe probe = new ScaleProbe(spec);
    probe.run();
    Results.writeJson(probe.result, new File(args[1]));
  }

  private void run() throws IOException {
    result.put("fileSystem", spec.fileSystem());
    result.put("files", spec.files());
    result.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    FileSystem fs = FileSystem.get(URI.create(spec.fileSystem()), conf);
    Path archive = fs.makeQualified(new Path(spec.archive()));
    warmUp(fs, archive);
    create(archive);
    append(archive);
    if (spec.verify()) {
      verify(fs, archive);
    }
    list(archive);
    int[] sample = readers(archive);
    warmGets(archive, sample);
    coldGets(archive);
  }

  /**
   * Builds and deletes a small archive first, so the measured build runs compiled code at
   * every size (otherwise the smallest archive pays most of the JIT's warm-up).
   */
  private void warmUp(FileSystem fs, Path archive) throws IOException {
    Path warmUp = archive.suffix(".warm-up");
    try (ArchiveWriter writer = ArchiveWriter.create(conf, warmUp, writerOptions())) {
      addInParallel(writer, 0, Math.min(WARM_UP_FILES, spec.files()), new AtomicLong(), false);
      writer.commit();
    }
    fs.delete(warmUp, true);
  }

  private WriterOptions writerOptions() {
    return WriterOptions.builder().settings(s -> s.threads(spec.threads())
        .scratchDirectory(java.nio.file.Path.of(spec.scratch())))
        .layout(l -> l.withBlockSize(spec.blockSize()).withReplication(spec.replication())).build();
  }

  private void create(Path archive) throws IOException {
    heap.reset();
    long start = System.nanoTime();
    AtomicLong bytes = new AtomicLong();
    long committed;
    long addedAt;
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive, writerOptions())) {
      addInParallel(writer, 0, spec.files(), bytes, true);
      addedAt = System.nanoTime();
      writer.commit();
      committed = System.nanoTime();
    }
    HeapWatch.Usage usage = heap.usage();
    double seconds = (committed - start) / 1e9;
    result.put("createMillis", (committed - start) / 1_000_000);
    result.put("addMillis", (addedAt - start) / 1_000_000);
    result.put("commitMillis", (committed - addedAt) / 1_000_000);
    result.put("originalBytes", bytes.get());
    result.put("filesPerSecond", spec.files() / seconds);
    result.put("megabytesPerSecond", bytes.get() / seconds / 1e6);
    phaseHeap("create", usage);
    indexFigures(archive);
    log.printf(Locale.ROOT, "  created %,d files in %.1f s (%,.0f files/s), live heap at most"
        + " %d MiB%n", spec.files(), seconds, spec.files() / seconds, usage.maxLive() >> 20);
  }

  /** The index as built, before the append adds a layer. */
  private void indexFigures(Path archive) throws IOException {
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      DirectoryFile directory = reader.directory();
      long indexBytes = 0;
      long functionBytes = 0;
      for (DirectoryFile.BucketRef bucket : directory.buckets()) {
        indexBytes += bucket.indexFileLength();
        functionBytes += bucket.functionLength();
      }
      result.put("buckets", directory.buckets().size());
      result.put("globalDepth", directory.globalDepth());
      result.put("parts", reader.manifest().parts().size());
      result.put("storedBytes", reader.manifest().storedBytes());
      result.put("indexBytesPerFile", (double) indexBytes / spec.files());
      result.put("functionBitsPerKey", functionBytes * 8.0 / spec.files());
    }
  }

  /**
   * Appends 1% more members (at least 1,000) to the archive just built: an append rewrites
   * only the buckets it touches, in bounded memory too.
   */
  private void append(Path archive) throws IOException {
    int more = Math.max(1000, spec.files() / 100);
    total = spec.files() + more;
    heap.reset();
    long start = System.nanoTime();
    try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, writerOptions())) {
      addInParallel(writer, spec.files(), total, new AtomicLong(), false);
      writer.commit();
    }
    result.put("appendedFiles", more);
    result.put("appendMillis", (System.nanoTime() - start) / 1_000_000);
    phaseHeap("append", heap.usage());
  }

  /** Member i goes to the thread i mod threads: each calling thread fills its own part. */
  /** Adds members {@code from} (inclusive) to {@code to} (exclusive). */
  private void addInParallel(ArchiveWriter writer, int from, int to, AtomicLong bytes,
      boolean progress) throws IOException {
    int threads = spec.threads();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong done = new AtomicLong();
    long step = Math.max(1, (to - from) / 20);
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int first = from + t;
      workers[t] = new Thread(() -> {
        try {
          for (int i = first; i < to && failure.get() == null; i += threads) {
            Generated member = generator.generate(i);
            writer.add(member.name(), member.bytes(), mtime(i));
            bytes.addAndGet(member.bytes().length);
            if (done.incrementAndGet() % step == 0 && progress) {
              log.printf(Locale.ROOT, "  added %,d of %,d%n", done.get(), to - from);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "scale-add-" + t);
      workers[t].start();
    }
    try {
      for (Thread worker : workers) {
        worker.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while adding");
    }
    Throwable failed = failure.get();
    if (failed instanceof IOException io) {
      throw io;
    } else if (failed != null) {
      throw new IllegalStateException("adding failed: " + failed, failed);
    }
  }

  private void verify(FileSystem fs, Path archive) throws IOException {
    heap.reset();
    long start = System.nanoTime();
    ArchiveVerifier.Report report = ArchiveVerifier.verify(HdfsIntegration.storage(fs, archive),
        ReaderOptions.defaults(), length -> { });
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (!report.ok() || report.members() != total) {
      throw new IllegalStateException("verify found " + report.members() + " members and "
          + report.problems());
    }
    result.put("verifyMillis", millis);
    phaseHeap("verify", heap.usage());
  }

  private void list(Path archive) throws IOException {
    heap.reset();
    long start = System.nanoTime();
    long names;
    try (HpfReader reader = HpfReader.open(conf, archive);
        var stream = reader.list()) {
      names = stream.count();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (names != total) {
      throw new IllegalStateException("listed " + names + " names of " + total);
    }
    result.put("listMillis", (long) (seconds * 1000));
    result.put("listNamesPerSecond", names / seconds);
    phaseHeap("list", heap.usage());
  }

  /**
   * Opens a reader and records its heap, then loads every bucket by getting a sample of
   * members (32 per bucket on average) and records the heap again; returns the sample.
   */
  private int[] readers(Path archive) throws IOException {
    long before = HeapWatch.liveAfterFullGc();
    long start = System.nanoTime();
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      long opened = System.nanoTime();
      long afterOpen = HeapWatch.liveAfterFullGc();
      result.put("openMillis", (opened - start) / 1e6);
      int samples = (int) Math.min(total, 32L * reader.directory().buckets().size());
      int[] sample = new SplittableRandom(spec.seed()).ints(samples, 0, total).toArray();
      for (int i : sample) {
        Generated expected = generator.generate(i);
        check(expected, reader.get(expected.name()));
      }
      long afterAll = HeapWatch.liveAfterFullGc();
      result.put("readerHeapAfterOpenBytes", Math.max(0, afterOpen - before));
      result.put("readerHeapAllBucketsBytes", Math.max(0, afterAll - before));
      return sample;
    }
  }

  private void warmGets(Path archive, int[] sample) throws IOException {
    SplittableRandom random = new SplittableRandom(spec.seed() + 1);
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      for (int w = 0; w < Math.min(1000, spec.gets()); w++) {
        reader.get(generator.generate(sample[random.nextInt(sample.length)]).name());
      }
      double[] micros = new double[spec.gets()];
      for (int g = 0; g < micros.length; g++) {
        Generated expected = generator.generate(random.nextInt(total));
        long start = System.nanoTime();
        byte[] bytes = reader.get(expected.name());
        micros[g] = (System.nanoTime() - start) / 1e3;
        check(expected, bytes);
      }
      latencies("warm", micros);
    }
  }

  /** A cold get: a new client, a new reader, one get. */
  private void coldGets(Path archive) throws IOException {
    SplittableRandom random = new SplittableRandom(spec.seed() + 2);
    double[] micros = new double[spec.coldGets()];
    for (int g = -Math.min(10, spec.coldGets()); g < micros.length; g++) {
      Generated expected = generator.generate(random.nextInt(total));
      long start = System.nanoTime();
      byte[] bytes;
      try (FileSystem fs = FileSystem.newInstance(archive.toUri(), conf);
          HpfReader reader = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
        bytes = reader.get(expected.name());
      }
      if (g >= 0) {
        micros[g] = (System.nanoTime() - start) / 1e3;
      }
      check(expected, bytes);
    }
    latencies("cold", micros);
  }

  private void latencies(String mode, double[] micros) {
    double[] sorted = micros.clone();
    Arrays.sort(sorted);
    result.put(mode + "GetP50Micros", Results.percentile(sorted, 0.50));
    result.put(mode + "GetP99Micros", Results.percentile(sorted, 0.99));
    result.put(mode + "GetMeanMicros", Arrays.stream(sorted).average().orElse(Double.NaN));
    result.put(mode + "Gets", sorted.length);
  }

  private void phaseHeap(String phase, HeapWatch.Usage usage) {
    result.put(phase + "LiveHeapBytes", usage.maxLive());
    result.put(phase + "HeapAfterGcBytes", usage.maxAfterGc());
    result.put(phase + "HeapPeakBytes", usage.peakUsed());
    result.put(phase + "Collections", usage.collections());
  }

  private static void check(Generated expected, byte[] bytes) {
    if (!Arrays.equals(expected.bytes(), bytes)) {
      throw new IllegalStateException("member " + expected.name() + " read back wrong");
    }
  }

  private static long mtime(int i) {
    return 1_763_000_000_000L + i * 1000L;
  }
}
