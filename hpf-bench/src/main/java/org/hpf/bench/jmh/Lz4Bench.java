package org.hpf.bench.jmh;

import java.nio.charset.StandardCharsets;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * LZ4 round trip of one log-like member: models the writer's {@code EntryEncoder} (the fastest
 * LZ4Factory's fast compressor, into a buffer of maxCompressedLength) and the reader's {@code
 * EntryReader.readBytes} (its safe decompressor into a buffer of the original length), the same
 * factory instances production uses.
 */
public class Lz4Bench extends JmhBase {
  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  @Param({"4096", "65536"})
  public int size;

  byte[] original;
  byte[] compressed;
  byte[] buffer;
  byte[] restored;

  @Setup
  public void setup() {
    StringBuilder text = new StringBuilder();
    java.util.SplittableRandom random = new java.util.SplittableRandom(3);
    while (text.length() < size) {
      text.append(1_763_000_000_000L + random.nextInt(1_000_000)).append(" INFO [http-worker-")
          .append(random.nextInt(64)).append("] request ").append(Long.toHexString(
              random.nextLong() >>> 20)).append(" served in ").append(random.nextInt(900))
          .append(" ms\n");
    }
    original = java.util.Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), size);
    buffer = new byte[COMPRESSOR.maxCompressedLength(size)];
    int n = COMPRESSOR.compress(original, 0, size, buffer, 0, buffer.length);
    compressed = java.util.Arrays.copyOf(buffer, n);
    restored = new byte[size];
  }

  @Benchmark
  public int compress() {
    return COMPRESSOR.compress(original, 0, size, buffer, 0, buffer.length);
  }

  @Benchmark
  public int decompress() {
    return DECOMPRESSOR.decompress(compressed, 0, compressed.length, restored, 0, size);
  }

  @Benchmark
  public int roundTrip() {
    int n = COMPRESSOR.compress(original, 0, size, buffer, 0, buffer.length);
    return DECOMPRESSOR.decompress(buffer, 0, n, restored, 0, size);
  }
}
