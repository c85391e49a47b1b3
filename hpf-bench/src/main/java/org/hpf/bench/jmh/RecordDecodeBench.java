package org.hpf.bench.jmh;

import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.format.RecordLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Decoding what a lookup reads: models {@code LoadedBucket.find} decoding and checking a record
 * (format 2: its group of 32 records' CRC32C, then the fields; format 1: the record's own CRC32C
 * and fields), and {@code EntryReader.readBytes} decoding and checking the entry header in the
 * part file ({@code EntryHeader.read}: magic, lengths, name, CRC32C).
 */
public class RecordDecodeBench extends JmhBase {
  byte[] record;
  byte[] group;
  byte[] header;

  @Setup
  public void setup() {
    String name = "app-07/2026-11-03/host-12/log-0000123.txt";
    IndexRecord one = new IndexRecord(NameHasher.SHA256_128.hash(name), 3, 1, 123_456_789L,
        4_321L, 9_876L, 1_763_000_000_000L);
    record = one.toBytes();
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try {
      RecordLayout.GROUPED.write(java.util.Collections.nCopies(RecordLayout.GROUP, one),
          new java.io.DataOutputStream(out));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    group = out.toByteArray();
    header = new EntryHeader(name, 1, 9_876L, 4_000L, 1_763_000_000_000L).toBytes();
  }

  @Benchmark
  public IndexRecord recordV2() throws CorruptArchiveException {
    return new RecordLayout.Span(RecordLayout.GROUPED, group, 0, RecordLayout.GROUP, "index", 0)
        .record(17);
  }

  @Benchmark
  public IndexRecord recordV1() throws CorruptArchiveException {
    return IndexRecord.read(record, 0, "index", 0);
  }

  @Benchmark
  public EntryHeader entryHeader() throws CorruptArchiveException {
    return EntryHeader.read(header, 0, header.length, "part", 0);
  }
}
