package org.hpf.internal.write;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.ipc.RemoteException;
import org.hpf.ArchiveLockedException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive writer lock: the file {@code _lock}, created only if absent and kept open (on
 * HDFS its lease stays with this writer) until {@link #release()} deletes it. It holds one line
 * naming the holder, which a second writer quotes in its error.
 */
public final class WriterLock implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriterLock.class);
  /** The holder line's user@host and pid. */
  private static final Pattern HOLDER = Pattern.compile(" by \\S*@(\\S+) \\(pid (\\d+)\\)");
  private final ArchiveStorage storage;
  private final ArchiveOutput file;
  private boolean released;

  private WriterLock(ArchiveStorage storage, ArchiveOutput file) {
    this.storage = storage;
    this.file = file;
  }

  /**
   * Takes the lock. A lock whose holder is gone (see {@link #whyGone}) is taken over, with a
   * warning; a live holder's never is ({@link ArchiveLockedException}).
   */
  public static WriterLock acquire(ArchiveStorage storage, String operation) throws IOException {
    try {
      return create(storage, operation);
    } catch (ArchiveLockedException locked) {
      String holder = holder(storage);
      String gone = whyGone(storage, holder);
      if (gone == null) {
        throw locked;
      }
      return takeOver(storage, operation, holder, gone, locked);
    }
  }

  /**
   * Replaces a dead holder's lock. Only one process takes over at a time: the takeover marker is
   * created exclusively, and the holder is read again under it, so two processes that both
   * judged the same holder dead cannot both end up holding the lock.
   */
  private static WriterLock takeOver(ArchiveStorage storage, String operation, String holder,
      String gone, ArchiveLockedException locked) throws IOException {
    ArchiveOutput marker;
    try {
      marker = storage.create(ArchiveLayout.LOCK_TAKEOVER, 0);
    } catch (FileAlreadyExistsException | RemoteException e) {
      throw locked; // another process is taking over
    }
    try {
      if (!holder.equals(holder(storage))) {
        throw locked;
      }
      LOG.warn("{}: taking over the lock of a writer that is gone ({}): {}", storage.location(),
          gone, holder);
      breakLock(storage);
      return create(storage, operation);
    } finally {
      marker.close();
      storage.delete(ArchiveLayout.LOCK_TAKEOVER);
    }
  }

  /** Why the lock's holder is known to be gone, or null if it may be alive. */
  static String whyGone(ArchiveStorage storage, String holder) throws IOException {
    Matcher line = HOLDER.matcher(holder);
    if (line.find() && line.group(1).equals(hostName())) {
      long pid = Long.parseLong(line.group(2));
      if (ProcessHandle.of(pid).isEmpty()) {
        return "process " + pid + " no longer runs on this host";
      }
      return null; // alive here: the file system's view cannot overrule that
    }
    if (storage.writerIsGone(ArchiveLayout.LOCK)) {
      return "its client stopped renewing its HDFS lease past the soft limit";
    }
    return null;
  }

  private static WriterLock create(ArchiveStorage storage, String operation)
      throws IOException {
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
    file.sync(); // the holder's line must survive a power loss to tell who held the lock
    return new WriterLock(storage, file);
  }

  /**
   * Removes a lock whose holder died: on HDFS its lease is recovered first, so a lock that a
   * live writer still holds open is closed under it rather than left half-owned.
   */
  public static void breakStale(ArchiveStorage storage) throws IOException {
    breakLock(storage);
    storage.delete(ArchiveLayout.LOCK_TAKEOVER); // of a process that died taking over
  }

  private static void breakLock(ArchiveStorage storage) throws IOException {
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
