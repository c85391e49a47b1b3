package org.hpf.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;

/**
 * The block locations of one part file, and the translation of a range of the part into the
 * block locations of a member whose bytes lie in that range (as HAR does for its part files), so
 * that a task reading a member is scheduled where the member's bytes are.
 */
final class PartBlocks {
  private final BlockLocation[] blocks;

  PartBlocks(BlockLocation[] blocks) {
    this.blocks = blocks == null ? new BlockLocation[0] : blocks;
  }

  /**
   * The blocks covering part bytes {@code [partStart, partStart + length)}, with offsets made
   * relative to {@code memberStart} (the part offset of the member's byte 0).
   */
  BlockLocation[] slice(long memberStart, long partStart, long length) throws IOException {
    List<BlockLocation> out = new ArrayList<>();
    long end = partStart + length;
    for (BlockLocation block : blocks) {
      long from = Math.max(block.getOffset(), partStart);
      long to = Math.min(block.getOffset() + block.getLength(), end);
      if (from < to) {
        BlockLocation copy = new BlockLocation(block);
        copy.setOffset(from - memberStart);
        copy.setLength(to - from);
        out.add(copy);
      }
    }
    return out.toArray(new BlockLocation[0]);
  }

  /**
   * One location for a member that cannot be read from a byte offset (a compressed one):
   * logical range {@code [0, memberLength)}, on the hosts of the blocks that hold its entry.
   */
  BlockLocation whole(long partStart, long entryLength, long memberLength) throws IOException {
    // Names, hosts and topology paths are parallel arrays, one element per DataNode: several
    // DataNodes may share a host, so each is kept by its name (host:port).
    Set<String> seen = new HashSet<>();
    List<String> names = new ArrayList<>();
    List<String> hosts = new ArrayList<>();
    List<String> topology = new ArrayList<>();
    boolean withTopology = true;
    for (BlockLocation block : slice(partStart, partStart, entryLength)) {
      String[] blockNames = block.getNames();
      String[] blockHosts = block.getHosts();
      String[] blockTopology = block.getTopologyPaths();
      withTopology &= blockTopology.length == blockNames.length;
      for (int i = 0; i < blockNames.length && i < blockHosts.length; i++) {
        if (seen.add(blockNames[i])) {
          names.add(blockNames[i]);
          hosts.add(blockHosts[i]);
          topology.add(i < blockTopology.length ? blockTopology[i] : null);
        }
      }
    }
    return new BlockLocation(names.toArray(new String[0]), hosts.toArray(new String[0]),
        withTopology ? topology.toArray(new String[0]) : new String[0], 0, memberLength);
  }

  /** The hosts holding part bytes {@code [start, end)}, those holding the most bytes first. */
  String[] hosts(long start, long end) throws IOException {
    java.util.Map<String, Long> bytes = new java.util.HashMap<>();
    for (BlockLocation block : slice(0, start, end - start)) {
      for (String host : block.getHosts()) {
        bytes.merge(host, block.getLength(), Long::sum);
      }
    }
    return bytes.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .map(java.util.Map.Entry::getKey).toArray(String[]::new);
  }
}
