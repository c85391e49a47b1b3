package org.hpf.internal.format;

import static org.hpf.internal.format.FormatTesting.ID;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.index.ExtendibleHashing;
import org.hpf.internal.io.HadoopStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The directory file: round trip, layout, and rejection of directories that cannot be. */
class DirectoryFileTest {
  @TempDir Path tmp;

  private static BucketRef bucket(int depth, int id) {
    return new BucketRef(depth, 1, id, 10 * id, 100 + id, 1000 + id);
  }

  /** Depth 2: bucket 0 (depth 1, low bit 0) at slots 0 and 2, buckets 1 and 2 at 1 and 3. */
  private static DirectoryFile sample() {
    return new DirectoryFile(2, List.of(bucket(1, 0), bucket(2, 1), bucket(2, 2)),
        new int[] {0, 1, 0, 2});
  }

  private static DirectoryFile parse(byte[] file) throws Exception {
    return DirectoryFile.parse(SealedFile.check(file, "d", FileKind.DIRECTORY, ID), "d");
  }

  private static void assertSameDirectory(DirectoryFile expected, DirectoryFile actual) {
    assertEquals(expected.globalDepth(), actual.globalDepth());
    assertEquals(expected.buckets(), actual.buckets());
    assertArrayEquals(expected.slots(), actual.slots());
  }

  /** A directory body with the given fields, sealed; no check of consistency. */
  private static byte[] raw(int depth, List<BucketRef> buckets, int[] slots) throws Exception {
    ByteBuffer body = ByteBuffer.allocate(1 + 4 + 29 * buckets.size() + 4 * slots.length);
    body.put((byte) depth).putInt(buckets.size());
    for (BucketRef b : buckets) {
      body.put((byte) b.localDepth()).putLong(b.indexGeneration()).putInt(b.bucketId())
          .putInt(b.recordCount()).putInt(b.functionLength()).putLong(b.indexFileLength());
    }
    for (int slot : slots) {
      body.putInt(slot);
    }
    return FormatTesting.sealed(FileKind.DIRECTORY, ID, body.array());
  }

  @Test
  void layoutMatchesTheSpec() throws Exception {
    DirectoryFile directory = sample();
    byte[] file = directory.toBytes(ID);
    assertArrayEquals(file, raw(2, directory.buckets(), directory.slots()));
    assertEquals(24 + 1 + 4 + 3 * 29 + 4 * 4 + 8, file.length);
    assertEquals(FileKind.DIRECTORY.code(), file[4]);
  }

  @Test
  void roundTripsHandBuiltDirectories() throws Exception {
    HadoopStorage storage = FormatTesting.storage(tmp);
    assertSameDirectory(sample(), parse(sample().toBytes(ID)));
    DirectoryFile single = new DirectoryFile(0, List.of(bucket(0, 0)), new int[] {0});
    FormatTesting.put(storage, "directory-0000000001", single.toBytes(ID));
    assertSameDirectory(single, DirectoryFile.parse(
        SealedFile.read(storage, "directory-0000000001", FileKind.DIRECTORY, ID), "d"));
    // Bucket order is free: slot 0 may point at the last bucket.
    DirectoryFile swapped = new DirectoryFile(1, List.of(bucket(1, 0), bucket(1, 1)),
        new int[] {1, 0});
    assertSameDirectory(swapped, parse(swapped.toBytes(ID)));
    // Global depth larger than every local depth.
    DirectoryFile wide = new DirectoryFile(3, List.of(bucket(1, 0), bucket(1, 1)),
        new int[] {0, 1, 0, 1, 0, 1, 0, 1});
    assertSameDirectory(wide, parse(wide.toBytes(ID)));
  }

  @Test
  void roundTripsDirectoriesBuiltByExtendibleHashing() throws Exception {
    Random random = new Random(3);
    for (int round = 0; round < 20; round++) {
      long[] lows = new long[200 + random.nextInt(3000)];
      for (int i = 0; i < lows.length; i++) {
        lows[i] = random.nextLong();
      }
      ExtendibleHashing hashing = ExtendibleHashing.empty(1 + random.nextInt(50), r -> lows[r]);
      for (int i = 0; i < lows.length; i++) {
        hashing.insert(i);
      }
      List<BucketRef> refs = new ArrayList<>();
      for (int b = 0; b < hashing.buckets().size(); b++) {
        ExtendibleHashing.Bucket bucket = hashing.buckets().get(b);
        refs.add(new BucketRef(bucket.localDepth(), 1, b, bucket.members().size(), 0, 0));
      }
      DirectoryFile directory = new DirectoryFile(hashing.globalDepth(), refs, hashing.slots());
      DirectoryFile read = parse(directory.toBytes(ID));
      assertSameDirectory(directory, read);
      // Every record is found in the bucket that holds it, through the low bits of lo.
      for (int b = 0; b < hashing.buckets().size(); b++) {
        for (int member : hashing.buckets().get(b).members()) {
          NameHash hash = new NameHash(random.nextLong(), lows[member]);
          assertSame(read.buckets().get(b), read.bucketOf(hash));
        }
      }
    }
  }

  @Test
  void slotUsesTheLowBitsOfLo() {
    NameHash hash = new NameHash(-1L, 0b1011_0110L);
    assertEquals(0, DirectoryFile.slotOf(hash, 0));
    assertEquals(0b0, DirectoryFile.slotOf(hash, 1));
    assertEquals(0b110, DirectoryFile.slotOf(hash, 3));
    assertEquals(0b1011_0110, DirectoryFile.slotOf(hash, 24));
    assertEquals((1 << 24) - 1, DirectoryFile.slotOf(new NameHash(0, -1L), 24));
  }

  @Test
  void emptyBucketsHaveNoIndexFileAndZeroFields() throws Exception {
    // A bucket with RecordCount 0 has IndexGeneration, BucketId, FunctionLength and
    // IndexFileLength 0: 29 bytes of one depth byte and 28 zeros.
    BucketRef empty = new BucketRef(1, 0, 0, 0, 0, 0);
    DirectoryFile directory = new DirectoryFile(1, List.of(bucket(1, 3), empty),
        new int[] {0, 1});
    byte[] file = directory.toBytes(ID);
    int second = FileHeader.SIZE + 1 + 4 + 29;
    assertEquals(1, file[second]);
    for (int i = 1; i < 29; i++) {
      assertEquals(0, file[second + i], "byte " + i + " of the empty bucket");
    }
    assertSameDirectory(directory, parse(file));
  }

  @Test
  void indexFileNameComesFromGenerationAndBucketId() {
    assertEquals("index-0000000007-000012", new BucketRef(0, 7, 12, 0, 0, 0).indexFile());
  }

  private static void assertRejected(String message, int depth, List<BucketRef> buckets,
      int[] slots) throws Exception {
    byte[] file = raw(depth, buckets, slots);
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class, () -> parse(file));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void rejectsInconsistentDirectories() throws Exception {
    // Global depth over 24.
    assertRejected("global depth 25", 25, List.of(bucket(0, 0)), new int[0]);
    // No bucket, or more buckets than slots.
    assertRejected("bad bucket count 0", 0, List.of(), new int[] {0});
    assertRejected("bad bucket count 2", 0, List.of(bucket(0, 0), bucket(0, 1)),
        new int[] {0});
    // Local depth over global depth.
    assertRejected("impossible fields", 1, List.of(bucket(2, 0), bucket(1, 1)),
        new int[] {0, 1});
    // Negative counts and lengths.
    assertRejected("impossible fields", 0, List.of(new BucketRef(0, 1, 0, -1, 0, 0)),
        new int[] {0});
    assertRejected("impossible fields", 0, List.of(new BucketRef(0, 1, 0, 0, -1, 0)),
        new int[] {0});
    assertRejected("impossible fields", 0, List.of(new BucketRef(0, 1, 0, 0, 0, -1)),
        new int[] {0});
    // A slot pointing at no bucket.
    assertRejected("points to bucket 3", 1, List.of(bucket(1, 0), bucket(1, 1)),
        new int[] {0, 3});
    assertRejected("points to bucket -1", 1, List.of(bucket(1, 0), bucket(1, 1)),
        new int[] {0, -1});
    // Slots of one bucket that disagree on its low bits (depth-1 bucket at slots 0 and 3).
    assertRejected("disagree", 2, List.of(bucket(1, 0), bucket(2, 1), bucket(2, 2)),
        new int[] {0, 1, 2, 0});
    // A bucket pointed at by too few slots (bucket 1 by none).
    assertRejected("bucket 1 has 0 slots, expected 1", 1, List.of(bucket(0, 0), bucket(1, 1)),
        new int[] {0, 0});
    // Two depth-1 buckets where one should be depth 0: slot counts disagree.
    assertRejected("slots", 1, List.of(bucket(1, 0), bucket(0, 1)), new int[] {0, 1});
  }

  @Test
  void rejectsCutOrLengthenedBodiesWithAValidFooter() throws Exception {
    byte[] file = sample().toBytes(ID);
    int body = file.length - FileHeader.SIZE - FileFooter.SIZE;
    for (int keep = 0; keep < body; keep++) {
      byte[] cut = new byte[FileHeader.SIZE + keep + FileFooter.SIZE];
      System.arraycopy(file, 0, cut, 0, FileHeader.SIZE + keep);
      System.arraycopy(file, file.length - 8, cut, cut.length - 8, 8);
      int n = keep;
      assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(cut)),
          () -> "body of " + n);
    }
    byte[] longer = new byte[file.length + 4];
    System.arraycopy(file, 0, longer, 0, file.length - 8);
    System.arraycopy(file, file.length - 8, longer, longer.length - 8, 8);
    assertTrue(assertThrows(CorruptArchiveException.class,
        () -> parse(FormatTesting.reseal(longer))).getMessage().contains("unexpected bytes"));
  }

  @Test
  void hugeCountsAreCorruptionNotOverflow() throws Exception {
    byte[] file = raw(24, List.of(bucket(0, 0)), new int[0]);
    ByteBuffer.wrap(file).putInt(FileHeader.SIZE + 1, Integer.MAX_VALUE);
    assertThrows(CorruptArchiveException.class, () -> parse(FormatTesting.reseal(file)));
    // A global depth of 24 with a body too short for its 2^24 slots.
    byte[] shortSlots = raw(24, List.of(bucket(0, 0)), new int[] {0, 0});
    assertThrows(CorruptArchiveException.class, () -> parse(shortSlots));
  }

  @Test
  void everyBitFlipIsDetected() throws Exception {
    byte[] file = sample().toBytes(ID);
    for (long bit = 0; bit < 8L * file.length; bit++) {
      byte[] flipped = FormatTesting.flip(file, bit);
      long at = bit;
      assertThrows(org.hpf.HpfException.class, () -> parse(flipped), () -> "bit " + at);
    }
  }

  /**
   * A crafted directory (its checksums recomputed) that declares the largest global depth and
   * holds no slots is refused before 2^24 slots are allocated.
   */
  @Test
  void aDepthTheBytesCannotHoldIsRefusedBeforeTheSlotsAreAllocated() {
    ByteBuffer body = ByteBuffer.allocate(1 + 4 + 29);
    body.put((byte) 24).putInt(1);
    body.put((byte) 0).putLong(0).putInt(0).putInt(0).putInt(0).putLong(0); // an empty bucket
    body.flip();
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> DirectoryFile.parse(body, "crafted"));
    assertTrue(e.getMessage().contains("needs 67108864 bytes of slots, 0 are left"),
        e.getMessage());
  }
}
