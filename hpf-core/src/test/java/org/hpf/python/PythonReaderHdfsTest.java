package org.hpf.python;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python reader over WebHDFS (plain HTTP, no JVM on its side) on the shared MiniDFSCluster:
 * the golden archive of the current format, put on HDFS, reads as the Java reader reads it.
 */
@Tag("hdfs")
class PythonReaderHdfsTest {
  @TempDir Path tmp;

  @Test
  void readsAnArchiveOnHdfsOverWebHdfs() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    FileSystem fs = dfs.fileSystem();
    org.apache.hadoop.fs.Path archive = fs.makeQualified(
        new org.apache.hadoop.fs.Path("/python/golden-v7.hpf"));
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(
        PythonReaderTest.golden(7).toUri()), archive);
    InetSocketAddress http = dfs.cluster().getNameNode().getHttpAddress();
    String url = "webhdfs://" + http.getHostString() + ":" + http.getPort()
        + archive.toUri().getPath();
    String[] user = {"--user", System.getProperty("user.name")};
    try (HpfReader java = HpfReader.open(fs, archive, ReaderOptions.defaults())) {
      ReaderComparison.assertSameArchive(java, url, tmp, user);
    }
    ReaderComparison.assertNotFound(url, "b/c/d/e.txt", user);
  }
}
