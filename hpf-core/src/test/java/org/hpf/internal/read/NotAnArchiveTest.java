package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.NoCommittedGenerationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a directory that holds no archive says so, and what was looked for. */
class NotAnArchiveTest {
  @TempDir java.nio.file.Path tmp;

  @Test
  void anEmptyDirectoryHasNoManifestsDirectory() throws IOException {
    Files.createDirectories(tmp.resolve("empty.hpf"));
    assertNotAnArchive(tmp.resolve("empty.hpf"));
  }

  @Test
  void aDirectoryOfOtherFilesHasNoManifestsDirectory() throws IOException {
    Files.createDirectories(tmp.resolve("junk.hpf/sub"));
    Files.writeString(tmp.resolve("junk.hpf/part-00000"), "not an hpf part");
    assertNotAnArchive(tmp.resolve("junk.hpf"));
  }

  private static void assertNotAnArchive(java.nio.file.Path dir) {
    Path archive = new Path(dir.toUri());
    NoCommittedGenerationException e = assertThrows(NoCommittedGenerationException.class,
        () -> HpfReader.open(new Configuration(), archive).close());
    String location = e.getMessage().substring(0, e.getMessage().indexOf(' '));
    assertEquals(location + " is not an hpf archive: no _manifests directory", e.getMessage());
  }
}
