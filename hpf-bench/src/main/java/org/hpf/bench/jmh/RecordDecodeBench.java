package org.hpf.bench.jmh;

import org.hpf.CorruptArchiveException;
import org.hpf.format.EntryHeader;
import org.hpf.format.IndexRecord;
import org.hpf.format.NameHasher;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Decoding what a lookup reads: models {@code LoadedBucket.find} decoding and checking the
 * 40-byte record ({@code IndexRecord.read}: CRC32C + fields), and {@code EntryReader.readBytes}
 * decoding and checking the entry header in the part file ({@code EntryHeader.read}: magic,
 * lengths, name, CRC32C).
 */
public class RecordDecodeBench extends JmhBase {
  byte[] record;
  byte[] header;

  @Setup
  public void setup() {
    String name = "app-07/2026-11-03/host-12/log-0000123.txt";
    record = new IndexRecord(NameHasher.MURMUR3_128.hash(name), 3, 1, 123_456_789L, 4_321L,
        9_876L).toBytes();
    header = new EntryHeader(name, 1, 9_876L, 4_000L, 1_763_000_000_000L).toBytes();
  }

  @Benchmark
  public IndexRecord record() throws CorruptArchiveException {
    return IndexRecord.read(record, 0, "index", 0);
  }

  @Benchmark
  public EntryHeader entryHeader() throws CorruptArchiveException {
    return EntryHeader.read(header, 0, header.length, "part", 0);
  }
}
