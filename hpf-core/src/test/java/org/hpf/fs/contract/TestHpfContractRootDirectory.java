package org.hpf.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.Test;

/** Hadoop's RootDirectory contract against hpf://. */
class TestHpfContractRootDirectory extends AbstractContractRootDirectoryTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HpfContract(conf);
  }

  @Test
  @Override
  public void testMkDirDepth1() {
    Unsupported.emptyDirectory();
  }
}
