package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hpf.internal.format.NameHasher;
import org.junit.jupiter.api.Test;

/** Writer options that the format bounds, and the hash algorithm a writer picks. */
class WriterOptionsTest {
  @Test
  void partSizeIsPositiveAndAtMostOneTebibyte() {
    assertEquals(1L << 40, WriterOptions.builder().partSize(1L << 40).build().partSize());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WriterOptions.builder().partSize((1L << 40) + 1));
    assertTrue(e.getMessage().contains("1 TiB"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> WriterOptions.builder().partSize(0));
  }

  @Test
  void newArchivesHashWithSha256AndExistingOnesKeepTheirs() {
    WriterOptions defaults = WriterOptions.defaults();
    assertNull(defaults.hasher());
    assertEquals(NameHasher.SHA256_128_ID, defaults.newArchiveAlgorithm());
    assertEquals(NameHasher.MURMUR3_128, defaults.hasher(NameHasher.MURMUR3_128_ID));
    assertEquals(NameHasher.SHA256_128, defaults.hasher(NameHasher.SHA256_128_ID));
    // A test's hasher wins, and is algorithm 1.
    NameHasher own = name -> new org.hpf.internal.format.NameHash(1, 2);
    WriterOptions hooked = WriterOptions.builder().hasher(own).build();
    assertEquals(own, hooked.hasher(NameHasher.SHA256_128_ID));
    assertEquals(NameHasher.MURMUR3_128_ID, hooked.newArchiveAlgorithm());
  }
}
