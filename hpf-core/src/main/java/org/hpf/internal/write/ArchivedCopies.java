package org.hpf.internal.write;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.IndexRecord;
import org.hpf.WriteSettings;
import org.hpf.internal.read.HpfReader;

/**
 * Judges whether a member's copy in a committed archive can be the only one: its bytes read
 * back from the archive have the CRC32C its entry stores, and its part is not LAZY_PERSIST
 * (whose replicas HDFS may lose to a DataNode restart before it saved them to disk).
 * Thread-safe.
 */
final class ArchivedCopies {
  private final HpfReader reader;
  private final FileSystem fs;
  private final Path archive;
  private final Map<Integer, String> partProblems = new HashMap<>();

  ArchivedCopies(HpfReader reader, FileSystem fs, Path archive) {
    this.reader = reader;
    this.fs = fs;
    this.archive = archive;
  }

  /**
   * Null when the member {@code name} ({@code record}, whose entry stores {@code storedCrc})
   * reads back whole with that CRC32C from a part that is durable; else why not.
   */
  String problem(String name, IndexRecord record, int storedCrc) {
    try {
      String part = partProblem(record.part());
      if (part != null) {
        return part;
      }
      int read = crc32cOf(name);
      return read == storedCrc ? null : String.format(java.util.Locale.ROOT,
          "its archived copy reads back with CRC32C %08x, not the stored %08x", read, storedCrc);
    } catch (IOException | RuntimeException e) {
      return "its archived copy does not read back: " + e.getMessage();
    }
  }

  private int crc32cOf(String name) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = reader.open(name)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        crc.update(buffer, 0, n);
      }
    }
    return (int) crc.getValue();
  }

  /** Why part {@code id} may not survive a DataNode restart, or null (one call per part). */
  private String partProblem(int id) throws IOException {
    if (!(fs instanceof DistributedFileSystem dfs)) {
      return null;
    }
    synchronized (partProblems) {
      if (!partProblems.containsKey(id)) {
        String name = ArchiveLayout.part(id);
        BlockStoragePolicySpi policy = dfs.getStoragePolicy(new Path(archive, name));
        partProblems.put(id, policy != null
            && WriteSettings.LAZY_PERSIST.equals(policy.getName())
            ? "its archived copy is in " + name + ", a " + WriteSettings.LAZY_PERSIST
                + " file that a DataNode restart can lose" : null);
      }
      return partProblems.get(id);
    }
  }
}
