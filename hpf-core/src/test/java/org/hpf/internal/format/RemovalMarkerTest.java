package org.hpf.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.CorruptArchiveException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The removal marker: 32 bytes of header and footer as FORMAT.md gives them; read as generation
 * 1's manifest it means a create that never committed is being removed, anywhere else, or
 * damaged, it is corruption.
 */
class RemovalMarkerTest {
  @TempDir Path tmp;

  @Test
  void isAHeaderOfKindRemovalAndAFooter() throws IOException {
    byte[] marker = RemovalMarker.bytes();
    assertThat(marker).hasSize(32);
    assertThat(marker).startsWith(0x48, 0x50, 0x46, 0x1A, 7, 1, 0, 0);
    assertThat(java.util.Arrays.copyOfRange(marker, 8, 24)).containsOnly(0);
    assertThat(java.util.Arrays.copyOfRange(marker, 24, 28))
        .containsExactly(0xB7, 0xAF, 0xB9, 0xE5);
    assertThat(SealedFile.check(marker, "marker", FileKind.REMOVAL, null).remaining())
        .as("body").isZero();
    assertThat(RemovalMarker.is(marker)).isTrue();
  }

  @Test
  void readAsTheFirstManifestItMeansNoCommittedGeneration() throws IOException {
    ArchiveStorage storage = storage();
    write(storage, RemovalMarker.NAME, RemovalMarker.bytes());
    assertThat(RemovalMarker.isAt(storage)).isTrue();
    assertThat(assertThrows(NoCommittedGenerationException.class,
        () -> Manifest.read(storage, 1))).hasMessageContaining("being removed")
        .hasMessageContaining("hpf recover");
  }

  @Test
  void elsewhereOrDamagedItIsCorruption() throws IOException {
    ArchiveStorage storage = storage();
    write(storage, Manifest.fileName(2), RemovalMarker.bytes());
    assertThat(assertThrows(CorruptArchiveException.class, () -> Manifest.read(storage, 2)))
        .hasMessageContaining("expected kind manifest, found removal");

    byte[] damaged = RemovalMarker.bytes();
    damaged[10] ^= 1;
    write(storage, RemovalMarker.NAME, damaged);
    assertThat(RemovalMarker.isAt(storage)).isFalse();
    assertThrows(CorruptArchiveException.class, () -> Manifest.read(storage, 1));
  }

  private ArchiveStorage storage() throws IOException {
    FileSystem local = FileSystem.getLocal(new Configuration());
    Files.createDirectories(tmp.resolve("a.hpf/_manifests"));
    return HdfsIntegration.storage(local, new org.apache.hadoop.fs.Path(tmp.resolve("a.hpf")
        .toUri()));
  }

  private void write(ArchiveStorage storage, String name, byte[] bytes) throws IOException {
    Files.write(tmp.resolve("a.hpf").resolve(name), bytes);
  }
}
