package org.hpf.bench.systems;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.MapFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.util.ReflectionUtils;
import org.hpf.bench.DatasetGenerator.Dataset;
import org.hpf.bench.DatasetGenerator.Member;

/**
 * Hadoop's SequenceFile and MapFile with Text names as keys and BytesWritable contents as
 * values, written by one writer straight from the local files (no upload first).
 *
 * <ul>
 *   <li>MapFile: the records sorted by name; its {@code index} (every 128th key by default) is
 *       read whole when a reader opens, then a get seeks to the nearest indexed key before the
 *       name and scans forward.
 *   <li>SequenceFile: the records in dataset order and no index: a get scans from the first
 *       record until it meets the name (a full scan for a name near the end).
 * </ul>
 */
public final class SequenceFiles implements BenchSystem {
  private final Configuration conf;
  private final boolean sorted;
  private final CompressionType compression;
  private final Class<? extends CompressionCodec> codec;
  private final short replication;
  private final long blockSize;

  private SequenceFiles(Configuration conf, boolean sorted, CompressionType compression,
      Class<? extends CompressionCodec> codec, short replication, long blockSize) {
    this.conf = conf;
    this.sorted = sorted;
    this.compression = compression;
    this.codec = codec;
    this.replication = replication;
    this.blockSize = blockSize;
  }

  public static SequenceFiles mapFile(Configuration conf, CompressionType compression,
      Class<? extends CompressionCodec> codec, short replication, long blockSize) {
    return new SequenceFiles(conf, true, compression, codec, replication, blockSize);
  }

  public static SequenceFiles sequenceFile(Configuration conf, CompressionType compression,
      Class<? extends CompressionCodec> codec, short replication, long blockSize) {
    return new SequenceFiles(conf, false, compression, codec, replication, blockSize);
  }

  @Override
  public String name() {
    return sorted ? "MapFile" : "SequenceFile";
  }

  @Override
  public Creation create(Dataset data, int n, Path dest) throws IOException {
    List<Member> members = new ArrayList<>(data.first(n));
    long start = System.nanoTime();
    CompressionCodec instance = ReflectionUtils.newInstance(codec, conf);
    if (sorted) {
      // Text orders by unsigned UTF-8 bytes.
      members.sort(Comparator.comparing(m -> new Text(m.name())));
      try (MapFile.Writer writer = new MapFile.Writer(conf, dest,
          MapFile.Writer.keyClass(Text.class),
          MapFile.Writer.valueClass(BytesWritable.class),
          MapFile.Writer.compression(compression, instance),
          SequenceFile.Writer.replication(replication),
          SequenceFile.Writer.blockSize(blockSize))) {
        for (Member m : members) {
          writer.append(new Text(m.name()), new BytesWritable(Files.readAllBytes(data.fileOf(m))));
        }
      }
    } else {
      try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
          SequenceFile.Writer.file(dest),
          SequenceFile.Writer.keyClass(Text.class),
          SequenceFile.Writer.valueClass(BytesWritable.class),
          SequenceFile.Writer.compression(compression, instance),
          SequenceFile.Writer.replication(replication),
          SequenceFile.Writer.blockSize(blockSize))) {
        for (Member m : members) {
          writer.append(new Text(m.name()), new BytesWritable(Files.readAllBytes(data.fileOf(m))));
        }
      }
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new Creation(millis, Map.of("threads", 1, "compression",
        compression + (compression == CompressionType.NONE ? "" : "/" + codec.getSimpleName())));
  }

  @Override
  public Reader open(FileSystem fs, Path dest) throws IOException {
    // conf names the cluster as default file system; the reader's client comes from Hadoop's
    // FileSystem cache, i.e. it is fs's when the caller runs as fs's user.
    Configuration readConf = conf;
    Path qualified = fs.makeQualified(dest);
    if (sorted) {
      MapFile.Reader reader = new MapFile.Reader(qualified, readConf);
      return new Reader() {
        @Override
        public byte[] get(String name) throws IOException {
          BytesWritable value = new BytesWritable();
          if (reader.get(new Text(name), value) == null) {
            throw new java.io.FileNotFoundException(name + " not in " + dest);
          }
          return value.copyBytes();
        }

        @Override
        public void close() throws IOException {
          reader.close();
        }
      };
    }
    SequenceFile.Reader reader = new SequenceFile.Reader(readConf,
        SequenceFile.Reader.file(qualified));
    return new Reader() {
      @Override
      public byte[] get(String name) throws IOException {
        Text wanted = new Text(name.getBytes(StandardCharsets.UTF_8));
        Text key = new Text();
        reader.sync(0); // back to the first record
        while (reader.next(key)) {
          if (key.equals(wanted)) {
            BytesWritable value = new BytesWritable();
            reader.getCurrentValue(value);
            return value.copyBytes();
          }
        }
        throw new java.io.FileNotFoundException(name + " not in " + dest);
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }
}
