package org.hpf.internal.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.io.StorageProfile;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** HDFS declares what hpf commits by, for a path that exists or not yet. */
@Tag("hdfs")
class HdfsStorageProfileTest {
  @Test
  void hdfsIsARenameStore() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    FileSystem fs = dfs.fileSystem();
    Configuration conf = dfs.configuration();
    assertThat(StorageProfile.of(fs, new Path("/"), conf)).isEqualTo(StorageProfile.RENAME);
    assertThat(StorageProfile.of(fs, new Path("/not/yet/an/archive.hpf"), conf))
        .isEqualTo(StorageProfile.RENAME);
    conf.set(StorageProfile.KEY, "read-only");
    assertThat(StorageProfile.of(fs, new Path("/"), conf)).isEqualTo(StorageProfile.READ_ONLY);
  }
}
