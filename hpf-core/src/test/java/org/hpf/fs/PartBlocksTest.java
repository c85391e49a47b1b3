package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.fs.BlockLocation;
import org.junit.jupiter.api.Test;

/** Where a member's bytes are, from its part's blocks. */
class PartBlocksTest {
  private static BlockLocation block(long offset, long length, int... ports) {
    String[] names = new String[ports.length];
    String[] hosts = new String[ports.length];
    String[] topology = new String[ports.length];
    for (int i = 0; i < ports.length; i++) {
      names[i] = "127.0.0.1:" + ports[i];
      hosts[i] = "127.0.0.1";
      topology[i] = "/default-rack/" + names[i];
    }
    return new BlockLocation(names, hosts, topology, offset, length);
  }

  @Test
  void aWholeMemberNamesEachDataNodeOnceInParallelArrays() throws Exception {
    // Two DataNodes on one host (as on a MiniDFSCluster), the entry across two blocks.
    PartBlocks part = new PartBlocks(new BlockLocation[] {block(0, 100, 1001, 1002),
        block(100, 100, 1002, 1003)});
    BlockLocation whole = part.whole(90, 20, 50);
    // CombineFileInputFormat asserts that hosts and topology paths pair up.
    assertEquals(whole.getHosts().length, whole.getTopologyPaths().length);
    assertArrayEquals(new String[] {"127.0.0.1:1001", "127.0.0.1:1002", "127.0.0.1:1003"},
        whole.getNames());
    assertArrayEquals(new String[] {"/default-rack/127.0.0.1:1001",
        "/default-rack/127.0.0.1:1002", "/default-rack/127.0.0.1:1003"},
        whole.getTopologyPaths());
    assertEquals(0, whole.getOffset());
    assertEquals(50, whole.getLength());
  }
}
