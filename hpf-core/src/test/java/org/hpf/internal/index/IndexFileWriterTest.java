package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bucket sizing: {@code capacityFor(blockSize)} is {@code (blockSize - 64 KiB) / 43} (a record
 * of 40 bytes and up to 3 function bytes per key, fingerprints included), and a bucket of that
 * many records, written with fingerprints, fits in one block.
 */
class IndexFileWriterTest {
  private static final ArchiveId ID = new ArchiveId(1, 2);

  @TempDir Path tmp;

  @Test
  void capacityIsWhatFitsABlockBeyondTheFunctionReserve() {
    assertEquals((1048576 - 65536) / 43, IndexFileWriter.capacityFor(1 << 20));
    assertEquals(22861, IndexFileWriter.capacityFor(1 << 20));
    assertEquals((128L * 1048576 - 65536) / 43, IndexFileWriter.capacityFor(128L << 20));
    assertEquals(1, IndexFileWriter.capacityFor(64 * 1024), "at least one record");
    assertEquals(1, IndexFileWriter.capacityFor(512));
    assertEquals(Integer.MAX_VALUE - 8, IndexFileWriter.capacityFor(Long.MAX_VALUE));
  }

  private static List<IndexRecord> records(int count, long seed) {
    Random random = new Random(seed);
    List<IndexRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      NameHash hash = new NameHash(random.nextLong(), random.nextLong());
      records.add(i % 10 == 0 ? IndexRecord.tombstone(hash)
          : new IndexRecord(hash, random.nextInt(1000), random.nextInt(2),
              random.nextInt(1 << 30), random.nextInt(1 << 20), random.nextInt(1 << 20)));
    }
    return records;
  }

  @Test
  void aFullFingerprintedBucketFitsOneBlock() throws Exception {
    HadoopStorage storage = new HadoopStorage(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(tmp.toUri()), (short) 0);
    long blockSize = 256 * 1024;
    int capacity = IndexFileWriter.capacityFor(blockSize);
    List<IndexRecord> records = records(capacity, 3);
    BucketRef ref = IndexFileWriter.write(storage, ID, 7, 3, 0, 0, records, blockSize, true);
    assertEquals(ArchiveLayout.index(7, 3), ref.indexFile());
    byte[] file = Files.readAllBytes(tmp.resolve(ref.indexFile()));
    assertEquals(ref.indexFileLength(), file.length);
    assertTrue(file.length <= blockSize, file.length + " bytes in a block of " + blockSize);
    assertEquals(BucketFunction.CODEC_DISTINGUISHING_BITS_FINGERPRINTS,
        file[FileHeader.SIZE + 10], "fingerprinted: function codec 4");
    assertEquals(capacity, ByteBuffer.wrap(file).getInt(FileHeader.SIZE));
    assertEquals(new HashSet<>(records),
        new HashSet<>(IndexFileReader.readRecords(storage, ID, ref)));
    // Without fingerprints: codec 3, two bytes per record smaller (codec 4 has no length
    // before its fingerprints).
    BucketRef plain = IndexFileWriter.write(storage, ID, 7, 4, 0, 0, records, blockSize, false);
    assertEquals(BucketFunction.CODEC_DISTINGUISHING_BITS,
        Files.readAllBytes(tmp.resolve(plain.indexFile()))[FileHeader.SIZE + 10]);
    assertEquals(ref.functionLength() - 2 * capacity, plain.functionLength());
  }

  @Test
  void aBucketLargerThanABlockIsRefused() throws Exception {
    HadoopStorage storage = new HadoopStorage(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(tmp.toUri()), (short) 0);
    LimitExceededException e = assertThrows(LimitExceededException.class,
        () -> IndexFileWriter.write(storage, ID, 1, 0, 0, 0, records(200, 4), 8192, true));
    assertTrue(e.getMessage().contains("more than one block"), e.getMessage());
    assertTrue(!Files.exists(tmp.resolve(ArchiveLayout.index(1, 0))), "nothing written");
  }
}
