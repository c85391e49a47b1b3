package org.hpf.internal.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer whose archive directory was removed under it (a recovery removed the create it was
 * making) never brings that directory back with its next file, however the archive's path was
 * spelled: a path made from a URI keeps the directory's trailing slash.
 */
class RemovedArchiveDirectoryTest {
  @org.junit.jupiter.api.io.TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"part-000001", "_manifests/manifest-0000000001"})
  void aFileOfARemovedArchiveIsNotCreated(String name) throws Exception {
    Path archive = tmp.resolve("a.hpf");
    Files.createDirectories(archive.resolve("_manifests"));
    FileSystem local = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path fromUri = new org.apache.hadoop.fs.Path(archive.toUri());
    assertTrue(fromUri.toString().endsWith("/"), fromUri.toString());
    ArchiveStorage storage = HdfsIntegration.storage(local, fromUri);
    storage.deleteRoot();
    assertThrows(FileNotFoundException.class, () -> storage.create(name, 0).close());
    assertFalse(Files.exists(archive), "the removed archive directory was created again");
  }
}
