package org.hpf.internal.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removing the empty directories a create left removes only what is empty: a directory that
 * another writer has filled meanwhile stays, with what it holds, and is no error.
 */
class EmptyDirectoriesTest {
  @TempDir Path tmp;

  @Test
  void aDirectoryThatHoldsAFileStaysOnTheLocalFileSystem() throws Exception {
    Path archive = tmp.resolve("a.hpf");
    Files.createDirectories(archive.resolve("_manifests"));
    Files.writeString(archive.resolve("_manifests/manifest-0000000001"), "committed");
    FileSystem local = FileSystem.getLocal(new Configuration());
    ArchiveStorage storage = HdfsIntegration.storage(local,
        new org.apache.hadoop.fs.Path(archive.toUri()));
    storage.deleteEmptyDirectories("_manifests");
    assertTrue(Files.exists(archive.resolve("_manifests/manifest-0000000001")));
  }
}
