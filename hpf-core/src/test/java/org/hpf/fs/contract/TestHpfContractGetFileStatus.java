package org.hpf.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.Test;

/** Hadoop's GetFileStatus contract against hpf://. */
class TestHpfContractGetFileStatus extends AbstractContractGetFileStatusTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HpfContract(conf);
  }

  @Test
  @Override
  public void testListStatusEmptyDirectory() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testListFilesEmptyDirectoryNonrecursive() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testListFilesEmptyDirectoryRecursive() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testListLocatedStatusEmptyDirectory() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testListStatusFiltering() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testListLocatedStatusFiltering() {
    Unsupported.emptyDirectory();
  }

  @Test
  @Override
  public void testComplexDirActions() {
    Unsupported.emptyDirectory();
  }
}
