package org.hpf.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.RemovalMarker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that are not hpf's, in or for an archive directory, are never deleted: a writer opened
 * on a directory that is no archive (a job's output, given by mistake) refuses before it takes
 * a lock or collects anything; recovery removes what a create that never committed left only
 * where the directory holds nothing but names an archive uses; and the collector takes only
 * files named exactly as hpf names them.
 */
class ForeignFilesTest {
  private static final Configuration CONF = new Configuration();
  private static final String DEAD_LOCK =
      "create by alice@gateway-3 (pid 4711) since 2026-01-05T08:00:00Z\n";

  @TempDir Path tmp;

  @Test
  void aWriterOnADirectoryWithoutManifestsTouchesNothing() throws IOException {
    Path dir = tmp.resolve("job-output");
    for (String name : new String[] {"part-r-00000", "part-000000", "index-0000000001-000000",
        "_SUCCESS"}) {
      write(dir.resolve(name), name);
    }
    assertThat(assertThrows(NoCommittedGenerationException.class,
        () -> ArchiveWriter.open(CONF, path(dir), breaking())))
        .hasMessageContaining("not an hpf archive");
    assertThat(assertThrows(NoCommittedGenerationException.class,
        () -> ArchiveWriter.recover(CONF, path(dir), breaking())))
        .hasMessageContaining("not an hpf archive");
    try (var names = Files.list(dir)) {
      assertThat(names.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
          "part-r-00000", "part-000000", "index-0000000001-000000", "_SUCCESS");
    }
  }

  @Test
  void recoveryLeavesADirectoryThatHoldsOtherFiles() throws IOException {
    for (String foreign : new String[] {"notes.txt", "_manifests/readme.txt"}) {
      Path dir = tmp.resolve("mixed-" + foreign.replace('/', '-') + ".hpf");
      Files.createDirectories(dir.resolve("_manifests"));
      write(dir.resolve("_lock"), DEAD_LOCK);
      write(dir.resolve(foreign), "keep me");
      assertThat(assertThrows(NoCommittedGenerationException.class,
          () -> ArchiveWriter.recover(CONF, path(dir), breaking())))
          .hasMessageContaining("holds files that are not an archive's (" + foreign + ")")
          .hasMessageContaining("move those files elsewhere");
      assertThat(Files.readString(dir.resolve(foreign))).isEqualTo("keep me");
    }
  }

  @Test
  void aRemovalThatDiedIsNotFinishedOverFilesThatCameSince() throws IOException {
    Path dir = tmp.resolve("marked.hpf");
    Files.createDirectories(dir.resolve("_manifests"));
    write(dir.resolve("_lock"), DEAD_LOCK);
    Files.write(dir.resolve(RemovalMarker.NAME), RemovalMarker.bytes());
    write(dir.resolve("part-000000"), "HPF");
    write(dir.resolve("notes.txt"), "keep me");
    // Recovery says what is in the way, where a reader says recovery finishes the removal.
    assertThat(assertThrows(NoCommittedGenerationException.class,
        () -> ArchiveWriter.recover(CONF, path(dir), breaking())))
        .hasMessageContaining("(notes.txt)");
    assertThat(dir.resolve("notes.txt")).exists();
    assertThat(dir.resolve("part-000000")).exists();
    assertThat(dir.resolve(RemovalMarker.NAME)).exists();
    Files.delete(dir.resolve("notes.txt"));
    assertThat(ArchiveWriter.recover(CONF, path(dir), breaking()).removedCreate()).isTrue();
    assertThat(dir).doesNotExist();
  }

  @Test
  void recoveryRemovesACreateThatLeftOnlyArchiveNames() throws IOException {
    Path dir = tmp.resolve("crashed.hpf");
    Files.createDirectories(dir.resolve("_manifests"));
    write(dir.resolve("_lock"), DEAD_LOCK);
    write(dir.resolve("part-000000"), "HPF");
    write(dir.resolve("_manifests/.tmp-manifest-0000000001-x"), "");
    Recovery.Report report = ArchiveWriter.recover(CONF, path(dir), breaking());
    assertThat(report.removedCreate()).isTrue();
    assertThat(dir).doesNotExist();
  }

  @Test
  void theCollectorTakesOnlyFilesNamedAsHpfNamesThem() throws IOException {
    Path dir = tmp.resolve("a.hpf");
    try (ArchiveWriter writer = ArchiveWriter.create(CONF, path(dir), WriterOptions.defaults())) {
      writer.add("a", "first".getBytes(StandardCharsets.UTF_8), 0);
      writer.commit();
    }
    write(dir.resolve("part-r-00000"), "a job's output, copied in");
    write(dir.resolve("part-000099"), "a dead writer's part");
    try (ArchiveWriter writer = ArchiveWriter.open(CONF, path(dir), WriterOptions.defaults())) {
      writer.add("b", "second".getBytes(StandardCharsets.UTF_8), 0);
      writer.commit();
    }
    assertThat(dir.resolve("part-r-00000")).exists();
    assertThat(dir.resolve("part-000099")).doesNotExist();
  }

  private static WriterOptions breaking() {
    return WriterOptions.builder().settings(s -> s.breakLock(true)).build();
  }

  private static org.apache.hadoop.fs.Path path(Path dir) {
    return new org.apache.hadoop.fs.Path(dir.toUri());
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
