package org.hpf.battery;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;

/** The mutation battery, with smaller archives, on a MiniDFSCluster of 3 DataNodes. */
@Tag("hdfs")
class HdfsMutationTest extends MutationBattery {

  @Override
  protected Configuration conf() throws IOException {
    return MiniDfs.shared().configuration();
  }

  @Override
  protected Path newArchiveRoot(String testName) throws IOException {
    FileSystem fs = MiniDfs.shared().fileSystem();
    Path root = fs.makeQualified(new Path("/mutations/" + testName + "-"
        + java.util.UUID.randomUUID().toString().substring(0, 8)));
    fs.mkdirs(root);
    return root;
  }

  @Override
  protected boolean onHdfs() {
    return true;
  }
}
