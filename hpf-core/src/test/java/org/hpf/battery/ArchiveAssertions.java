package org.hpf.battery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameHash;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;

/** Checks an archive against the {@link TestTree} it was made from. */
final class ArchiveAssertions {
  private ArchiveAssertions() {}

  /**
   * Every member back byte-identical through get(), open() and stat() (length and mtime), exists()
   * true, list() exactly the names in unsigned UTF-8 byte order, manifest totals, and the
   * directory invariants.
   */
  static void assertArchiveHolds(HpfReader reader, TestTree tree, NameHasher hasher)
      throws IOException {
    String seed = Seeds.describe();
    assertListing(reader, tree);
    for (TestTree.Member m : tree.members().values()) {
      assertMember(reader, m);
    }
    Manifest manifest = reader.manifest();
    assertEquals(tree.size(), manifest.fileCount(), "manifest file count " + seed);
    assertEquals(tree.totalBytes(), manifest.originalBytes(), "manifest original bytes " + seed);
    assertDirectoryInvariants(reader, tree.names(), hasher);
  }

  static void assertMember(HpfReader reader, TestTree.Member m) throws IOException {
    String what = "'" + m.name() + "' (" + m.bytes().length + " bytes) " + Seeds.describe();
    assertTrue(reader.exists(m.name()), "exists " + what);
    assertArrayEquals(m.bytes(), reader.get(m.name()), "get " + what);
    try (InputStream in = reader.open(m.name())) {
      assertArrayEquals(m.bytes(), in.readAllBytes(), "open " + what);
      assertEquals(-1, in.read(), "open, read after the end " + what);
    }
    EntryStatus status = reader.stat(m.name());
    assertEquals(m.name(), status.name(), "stat name " + what);
    assertEquals(m.bytes().length, status.length(), "stat length " + what);
    assertEquals(m.mtimeMillis(), status.mtimeMillis(), "stat mtime " + what);
    assertTrue(status.storedLength() <= status.length(), "stored larger than original " + what);
    assertTrue(reader.manifest().part(status.part()) != null, "stat part " + what);
  }

  /** list() returns exactly the tree's names, in increasing unsigned UTF-8 byte order. */
  static void assertListing(HpfReader reader, TestTree tree) throws IOException {
    List<String> listed;
    try (Stream<String> names = reader.list()) {
      listed = names.collect(Collectors.toList());
    }
    assertEquals(tree.names(), listed, "list() " + Seeds.describe());
    // Independent of MemberNames.ORDER: compare the UTF-8 bytes themselves.
    for (int i = 1; i < listed.size(); i++) {
      byte[] a = listed.get(i - 1).getBytes(StandardCharsets.UTF_8);
      byte[] b = listed.get(i).getBytes(StandardCharsets.UTF_8);
      assertTrue(Arrays.compareUnsigned(a, b) < 0, "list() order: '" + listed.get(i - 1)
          + "' before '" + listed.get(i) + "' " + Seeds.describe());
    }
  }

  /**
   * The extendible-hashing invariants of docs/FORMAT.md on the directory a reader loaded, and
   * that every member's hash leads to a bucket whose record count matches.
   */
  static void assertDirectoryInvariants(HpfReader reader, List<String> names, NameHasher hasher) {
    DirectoryFile dir = reader.directory();
    int g = dir.globalDepth();
    int capacity = reader.manifest().bucketCapacity();
    String seed = Seeds.describe();
    assertTrue(g >= 0 && g <= DirectoryFile.MAX_DEPTH, "global depth " + g);
    assertEquals(1 << g, dir.slots().length, "slot count for global depth " + g);
    List<BucketRef> buckets = dir.buckets();
    int[] pointers = new int[buckets.size()];
    int[] lowBits = new int[buckets.size()];
    Arrays.fill(lowBits, -1);
    // Messages as suppliers: built only on failure, not once per slot of up to 2^24.
    for (int slot = 0; slot < dir.slots().length; slot++) {
      int at = slot;
      int b = dir.slots()[slot];
      assertTrue(b >= 0 && b < buckets.size(), () -> "slot " + at + " points to bucket " + b);
      int d = buckets.get(b).localDepth();
      int low = slot & ((1 << d) - 1);
      if (lowBits[b] == -1) {
        lowBits[b] = low;
      } else {
        assertEquals(lowBits[b], low, () -> "slots of bucket " + b + " disagree on their low "
            + d + " bits");
      }
      pointers[b]++;
    }
    long total = 0;
    int maxDepth = 0;
    for (int b = 0; b < buckets.size(); b++) {
      BucketRef ref = buckets.get(b);
      int d = ref.localDepth();
      assertTrue(d <= g, "bucket " + b + " deeper than the directory");
      assertEquals(1 << (g - d), pointers[b], "slots pointing at bucket " + b + " of depth " + d
          + " (global depth " + g + ")");
      assertTrue(ref.recordCount() <= capacity, "bucket " + b + " holds " + ref.recordCount()
          + " records, capacity " + capacity + " " + seed);
      total += ref.recordCount();
      maxDepth = Math.max(maxDepth, d);
    }
    assertEquals(names.size(), total, "records in all buckets " + seed);
    // The directory doubles only when a bucket as deep as it splits.
    assertEquals(maxDepth, g, "global depth is the largest local depth " + seed);
    // Two buckets born of one split (same depth d, low d bits differing only in bit d-1) held
    // more than the capacity when they split, and records never leave a bucket.
    Map<Long, Integer> byDepthAndBits = new HashMap<>();
    for (int b = 0; b < buckets.size(); b++) {
      byDepthAndBits.put(((long) buckets.get(b).localDepth() << 32) | lowBits[b], b);
    }
    for (int b = 0; b < buckets.size(); b++) {
      int d = buckets.get(b).localDepth();
      if (d == 0 || (lowBits[b] >>> (d - 1) & 1) == 1) {
        continue;
      }
      Integer buddy = byDepthAndBits.get(((long) d << 32) | (lowBits[b] | (1 << (d - 1))));
      if (buddy != null) {
        assertTrue(buckets.get(b).recordCount() + buckets.get(buddy).recordCount() > capacity,
            "buckets " + b + " and " + buddy + " of depth " + d + " split needlessly " + seed);
      }
    }
    // Each member is counted by the bucket its hash leads to.
    int[] counted = new int[buckets.size()];
    for (String name : names) {
      NameHash hash = hasher.hash(name);
      int b = dir.slots()[DirectoryFile.slotOf(hash, g)];
      int d = buckets.get(b).localDepth();
      assertEquals(lowBits[b], (int) (hash.low() & ((1L << d) - 1)), () -> "bucket of " + name);
      counted[b]++;
    }
    List<String> wrong = new ArrayList<>();
    for (int b = 0; b < buckets.size(); b++) {
      if (counted[b] != buckets.get(b).recordCount()) {
        wrong.add("bucket " + b + ": " + counted[b] + " members hash here, record count "
            + buckets.get(b).recordCount());
      }
    }
    if (!wrong.isEmpty()) {
      fail(wrong + " " + seed);
    }
  }
}
