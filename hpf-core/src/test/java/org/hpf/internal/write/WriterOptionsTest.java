package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hpf.ArchiveSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.format.NameHasher;
import org.junit.jupiter.api.Test;

/** Writer options that the format bounds, and the hash algorithm a writer picks. */
class WriterOptionsTest {
  @Test
  void partSizeIsPositiveAndAtMostOneTebibyte() {
    WriterOptions largest = WriterOptions.builder().layout(l -> l.withPartSize(1L << 40)).build();
    assertEquals(1L << 40, largest.layout().partSize());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ArchiveSettings.defaults().withPartSize((1L << 40) + 1));
    assertTrue(e.getMessage().contains("1 TiB"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> ArchiveSettings.defaults().withPartSize(0));
  }

  @Test
  void theEngineTakesThePublicSettingsWhole() {
    WriteSettings settings = WriteSettings.builder().threads(3).pinIndex(false)
        .allowAccessLoss(true).build();
    ArchiveSettings layout = ArchiveSettings.defaults().withBucketCapacity(100);
    WriterOptions options = WriterOptions.of(layout, settings);
    assertEquals(layout, options.layout());
    assertEquals(settings.toString(), options.settings().toString());
    // A change through the engine's builder keeps every other setting.
    WriterOptions changed = options.toBuilder().settings(s -> s.threads(5)).build();
    assertEquals(5, changed.settings().threads());
    assertFalse(changed.settings().pinIndex());
    assertTrue(changed.settings().allowAccessLoss());
    assertEquals(100, changed.layout().bucketCapacity());
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
