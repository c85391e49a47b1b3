package org.hpf.internal.hdfs;

import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS lease recovery for files a crashed writer left open: until the NameNode closes them,
 * their last block's length is not final and another client cannot take them over.
 */
public final class HdfsLeases {
  private static final long TIMEOUT_MILLIS = 120_000;

  private HdfsLeases() {}

  /** Recovers the lease on {@code path} and waits until the file is closed. */
  public static void recover(DistributedFileSystem fs, Path path) throws IOException {
    long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    long pause = 50;
    while (!fs.recoverLease(path)) {
      if (fs.isFileClosed(path)) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("lease recovery of " + path + " did not finish in "
            + TIMEOUT_MILLIS / 1000 + " s");
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while recovering the lease of " + path);
      }
      pause = Math.min(pause * 2, 2000);
    }
  }

  /**
   * True when the client that holds {@code path} open has stopped renewing its lease past the
   * soft limit (HDFS's notion of a dead writer; lease recovery is then under way) or has closed
   * it; false while the holder renews it. Asks the NameNode by trying to append, which it
   * refuses to a second client while the holder's lease is live.
   */
  public static boolean holderIsGone(DistributedFileSystem fs, Path path) throws IOException {
    try {
      fs.append(path).close();
      return true; // closed: nobody holds it
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      // The exception classes live in the NameNode's jar: compare by name.
      if (e.getClassName().endsWith(".RecoveryInProgressException")) {
        return true; // the soft limit passed: the NameNode is recovering the lease
      }
      if (e.getClassName().endsWith(".AlreadyBeingCreatedException")) {
        return false; // the holder renews its lease
      }
      throw e;
    }
  }
}
