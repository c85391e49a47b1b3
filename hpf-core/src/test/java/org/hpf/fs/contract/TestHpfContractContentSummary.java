package org.hpf.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.Test;

/** Hadoop's ContentSummary contract against hpf://. */
class TestHpfContractContentSummary extends AbstractContractContentSummaryTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HpfContract(conf);
  }

  @Test
  @Override
  public void testGetContentSummary() {
    Unsupported.emptyDirectory();
  }
}
