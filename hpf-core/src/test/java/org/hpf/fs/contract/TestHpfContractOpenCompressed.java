package org.hpf.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.hpf.Compression;

/** Hadoop's Open contract against hpf://, over LZ4-compressed members. */
class TestHpfContractOpenCompressed extends AbstractContractOpenTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new HpfContract(conf, Compression.LZ4);
  }
}
