package org.hpf.write;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.ipc.RemoteException;
import org.hpf.ArchiveLockedException;
import org.hpf.format.ArchiveLayout;
import org.hpf.io.ArchiveInput;
import org.hpf.io.ArchiveOutput;
import org.hpf.io.ArchiveStorage;

/**
 * The exclusive writer lock: the file {@code _lock}, created only if absent and kept open (on
 * HDFS its lease stays with this writer) until {@link #release()} deletes it. It holds one line
 * naming the holder, which a second writer quotes in its error.
 */
public final class WriterLock implements AutoCloseable {
  private final ArchiveStorage storage;
  private final ArchiveOutput file;
  private boolean released;

  private WriterLock(ArchiveStorage storage, ArchiveOutput file) {
    this.storage = storage;
    this.file = file;
  }

  public static WriterLock acquire(ArchiveStorage storage, String operation) throws IOException {
    ArchiveOutput file;
    try {
      file = storage.create(ArchiveLayout.LOCK, 0);
    } catch (FileAlreadyExistsException e) {
      throw new ArchiveLockedException(storage.location(), holder(storage));
    } catch (RemoteException e) {
      if (storage.exists(ArchiveLayout.LOCK)) {
        throw new ArchiveLockedException(storage.location(), holder(storage));
      }
      throw e;
    }
    String line = operation + " by " + System.getProperty("user.name") + "@"
        + hostName() + " (pid " + ManagementFactory.getRuntimeMXBean().getPid() + ") since "
        + Instant.now() + "\n";
    file.stream().write(line.getBytes(StandardCharsets.UTF_8));
    file.flush();
    return new WriterLock(storage, file);
  }

  /**
   * Removes a lock whose holder died: on HDFS its lease is recovered first, so a lock that a
   * live writer still holds open is closed under it rather than left half-owned.
   */
  public static void breakStale(ArchiveStorage storage) throws IOException {
    if (storage.exists(ArchiveLayout.LOCK)) {
      storage.recoverLease(ArchiveLayout.LOCK);
      storage.delete(ArchiveLayout.LOCK);
    }
  }

  /**
   * True when the lock exists and its line contains {@code token}: the work of a driver that
   * died, or whose lock was broken, must not be committed under another writer's lock.
   */
  public static boolean heldBy(ArchiveStorage storage, String token) throws IOException {
    if (!storage.exists(ArchiveLayout.LOCK)) {
      return false;
    }
    try (ArchiveInput in = storage.open(ArchiveLayout.LOCK)) {
      int n = (int) Math.min(in.length(), 1024);
      return new String(in.readFully(0, n), StandardCharsets.UTF_8).contains(token);
    }
  }

  private static String holder(ArchiveStorage storage) {
    try (ArchiveInput in = storage.open(ArchiveLayout.LOCK)) {
      int n = (int) Math.min(in.length(), 1024);
      String text = new String(in.readFully(0, n), StandardCharsets.UTF_8).trim();
      return text.isEmpty() ? "another writer (lock file " + storage.location(ArchiveLayout.LOCK)
          + ")" : text;
    } catch (IOException e) {
      return "another writer (lock file " + storage.location(ArchiveLayout.LOCK) + ")";
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown-host";
    }
  }

  /** Closes and deletes the lock file. */
  public void release() throws IOException {
    if (released) {
      return;
    }
    released = true;
    try {
      file.close();
    } finally {
      storage.delete(ArchiveLayout.LOCK);
    }
  }

  @Override
  public void close() throws IOException {
    release();
  }
}
