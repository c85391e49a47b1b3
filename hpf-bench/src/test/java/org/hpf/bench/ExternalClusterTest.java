package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --cluster external}: the NameNode and DataNodes run in a child JVM, the benchmark's
 * client reaches them over the loopback interface, the counters come from the child, and
 * closing the cluster stops the child.
 */
@Tag("hdfs")
class ExternalClusterTest {
  @TempDir
  Path work;

  @Test
  void theDaemonsRunInAChildJvmThatStopsWithTheCluster() throws Exception {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    BenchCluster cluster = BenchCluster.start(BenchCluster.Mode.EXTERNAL,
        new File(work.toFile(), "dfs"), 1, (short) 1, 1 << 20,
        new PrintStream(said, true, StandardCharsets.UTF_8));
    ProcessHandle child;
    try {
      assertTrue(said.toString(StandardCharsets.UTF_8).contains("child JVM"), said.toString());
      assertTrue(java.net.InetAddress.getByName(cluster.uri().getHost()).isLoopbackAddress(),
          "loopback only: " + cluster.uri());
      child = ((ChildProcessDaemons) cluster.daemons()).process();
      assertTrue(child.isAlive());
      assertTrue(ProcessHandle.current().children().anyMatch(child::equals),
          "a child of this JVM");
      assertNotEquals(ProcessHandle.current().pid(), child.pid());

      FileSystem fs = cluster.fs();
      byte[] data = "the daemons are elsewhere".getBytes(StandardCharsets.UTF_8);
      long[] before = cluster.namesystemTotals();
      try (FSDataOutputStream out = fs.create(cluster.path("/external/a.txt"))) {
        out.write(data);
      }
      long[] after = cluster.namesystemTotals();
      assertArrayEquals(new long[] {before[0] + 2, before[1] + 1}, after,
          "a directory and a file, and one block, counted by the child's NameNode");
      long blocksRead = cluster.dataNodeCounter("blocksRead");
      try (FSDataInputStream in = fs.open(cluster.path("/external/a.txt"))) {
        assertArrayEquals(data, in.readAllBytes());
      }
      // The DataNode counts a block read once it has sent the block, which may be after the
      // client has its bytes: wait for it.
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (cluster.dataNodeCounter("blocksRead") == blocksRead
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertEquals(blocksRead + 1, cluster.dataNodeCounter("blocksRead"));
      assertEquals(1, cluster.liveDataNodes());
      assertTrue(cluster.startedDaemons());
    } finally {
      cluster.close();
    }
    assertTrue(child.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS) != null);
    assertTrue(!child.isAlive(), "closing the cluster stops its JVM");
  }
}
