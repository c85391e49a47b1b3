package org.hpf.bench.systems;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.internal.hdfs.CachePinning;
import org.hpf.internal.hdfs.CacheStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.read.RecordCacheStats;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.WriterOptions;

/**
 * HPF: {@link ArchiveCreator#create} straight from the local files (no upload first), then
 * {@link HpfReader#get}. A cold get opens the archive (manifest + directory), loads the bucket's
 * function and reads record and entry; a warm reader has the functions in memory and its index
 * and part streams open. On HDFS each archive's index files are pinned by the create (cache
 * directives, HPF's default); creation waits, untimed, until the DataNodes report them cached.
 */
public final class HpfArchive implements BenchSystem {
  private final Configuration conf;
  private final WriterOptions options;

  public HpfArchive(Configuration conf, WriterOptions options) {
    this.conf = conf;
    this.options = options;
  }

  @Override
  public String name() {
    return "HPF";
  }

  @Override
  public Creation create(Dataset data, int n, Path dest) throws IOException {
    int batches = (n + data.batchSize() - 1) / data.batchSize();
    List<Path> sources = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      sources.add(new Path(data.batchDir(b).toUri()));
    }
    long start = System.nanoTime();
    CreateResult result = ArchiveCreator.create(conf, dest, sources, options);
    long millis = (System.nanoTime() - start) / 1_000_000;
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("threads", options.settings().threads());
    details.put("mergeMillis", result.mergeMillis());
    details.put("indexMillis", result.indexMillis());
    // Every phase of the create; they add up to createWallMillis.
    details.put("phasesMillis", result.phases().millisByKey());
    details.put("createWallMillis", result.phases().wallNanos() / 1000 / 1e3);
    details.put("parts", result.parts());
    details.put("buckets", result.buckets());
    details.put("storedBytes", result.storedBytes());
    details.put("indexBytesPerFile", result.indexBytesPerFile());
    details.put("functionBitsPerKey", result.functionBitsPerKey());
    details.put("hdfs", result.hdfs().describe());
    FileSystem fs = dest.getFileSystem(conf);
    if (fs instanceof DistributedFileSystem) {
      // Not timed: the DataNodes cache the pinned index files in the background.
      long waitStart = System.nanoTime();
      CacheStatus cache = CachePinning.awaitCached(fs, dest,
          options.settings().cachePool(), Duration.ofSeconds(60));
      details.put("indexBytesPinned", cache.bytesNeeded());
      details.put("indexBytesCached", cache.bytesCached());
      details.put("cacheWaitMillis", (System.nanoTime() - waitStart) / 1_000_000);
    }
    return new Creation(millis, details);
  }

  @Override
  public Reader open(FileSystem fs, Path dest) throws IOException {
    return open(fs, dest, 0);
  }

  /** A reader whose record cache holds up to {@code recordCacheBytes} (0: none). */
  public CachingReader open(FileSystem fs, Path dest, long recordCacheBytes)
      throws IOException {
    return new CachingReader(openReader(fs, dest, recordCacheBytes));
  }

  /** A reader that says what its record cache holds. */
  public static final class CachingReader implements Reader {
    private final HpfReader reader;

    CachingReader(HpfReader reader) {
      this.reader = reader;
    }

    @Override
    public byte[] get(String name) throws IOException {
      return reader.get(name);
    }

    public RecordCacheStats recordCacheStats() {
      return reader.recordCacheStats();
    }

    /** Heap of the index records the reader holds whole (its default index memory). */
    public long heldIndexBytes() {
      return reader.heldIndexBytes();
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** The reader itself, for the throughput suite's stat and list operations. */
  public HpfReader openReader(FileSystem fs, Path dest, long recordCacheBytes)
      throws IOException {
    return HpfReader.open(fs, dest,
        ReaderOptions.defaults().withRecordCacheBytes(recordCacheBytes));
  }
}
