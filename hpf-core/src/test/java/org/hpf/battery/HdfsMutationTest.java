package org.hpf.battery;

import org.junit.jupiter.api.Tag;

/** The mutation battery, with smaller archives, on a MiniDFSCluster of 3 DataNodes. */
@Tag("hdfs")
class HdfsMutationTest extends MutationBattery {
  HdfsMutationTest() {
    super(hdfs("mutations"));
  }
}
