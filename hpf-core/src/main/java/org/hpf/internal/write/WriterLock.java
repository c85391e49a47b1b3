package org.hpf.internal.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.ipc.RemoteException;
import org.hpf.ArchiveLockedException;
import org.hpf.ConcurrentCommitException;
import org.hpf.LockLostException;
import org.hpf.WriteSettings;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exclusive writer lock: the file {@code _lock}, created only if absent and kept open (on
 * HDFS its lease stays with this writer) until {@link #release()} deletes it. It holds one line
 * ({@link LockLine}) naming the holder, which a second writer quotes in its error, with a token
 * unique to this holding: {@link #confirm()} checks that the lock is still this one, and
 * {@link #release()} deletes only this one.
 */
public final class WriterLock implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WriterLock.class);
  private final ArchiveStorage storage;
  private final ArchiveOutput file;
  private final String token;
  private boolean released;
  /** Whose lock this one replaced and why it could (see {@link #takenOver()}), or null. */
  private String takenOver;
  /** What the holders of the locks this one broke or took over may still add. */
  private FencedParts fenced = FencedParts.NONE;

  private WriterLock(ArchiveStorage storage, ArchiveOutput file, String token) {
    this.storage = storage;
    this.file = file;
    this.token = token;
  }

  /**
   * The holder whose lock this one took over, for people, with the reason it was known to be
   * gone ({@code append by alice@host (pid 4711) since ... (process 4711 no longer runs ...)});
   * null when the lock was free. The caller reports it, with what recovery did.
   */
  public String takenOver() {
    return takenOver;
  }

  /**
   * What the holders of the locks this one broke or took over may still add to the archive
   * (nothing where the lock was free).
   */
  FencedParts fencedWriters() {
    return fenced;
  }

  /**
   * Takes the lock for a writer with {@code settings}: first breaks the lock there where they
   * say so ({@code --break-lock}), then as {@link #acquire}.
   */
  static WriterLock take(ArchiveStorage storage, String operation, WriteSettings settings)
      throws IOException {
    FencedParts broken = settings.breakLock() ? breakStale(storage) : FencedParts.NONE;
    WriterLock lock = acquire(storage, operation, settings.threads());
    lock.fenced = broken.and(lock.fenced);
    return lock;
  }

  /**
   * Takes the lock for a holder that writes at most {@code lanes} part files at once. A lock
   * whose holder is gone (see {@link #whyGone}) is taken over, with a warning; a live holder's
   * never is ({@link ArchiveLockedException}).
   */
  public static WriterLock acquire(ArchiveStorage storage, String operation, int lanes)
      throws IOException {
    try {
      return create(storage, operation, lanes);
    } catch (ArchiveLockedException locked) {
      String holder = holder(storage);
      String gone = readable(storage) ? whyGone(storage, holder) : null;
      if (gone == null) {
        throw LockLine.parse(holder).isThisProcess()
            ? new ArchiveLockedException(storage.location(), LockLine.forPeople(holder), true)
            : locked;
      }
      return takeOver(storage, operation, lanes, holder, gone, locked);
    }
  }

  /**
   * Replaces a dead holder's lock. Only one process takes over at a time: the takeover marker is
   * created exclusively, and the holder is read again under it (its line is unique, by its
   * token), so two processes that both judged the same holder dead cannot both end up holding
   * the lock.
   */
  private static WriterLock takeOver(ArchiveStorage storage, String operation, int lanes,
      String holder, String gone, ArchiveLockedException locked) throws IOException {
    ArchiveOutput marker;
    try {
      marker = storage.create(ArchiveLayout.LOCK_TAKEOVER, 0);
      if (storage.profile() == StorageProfile.CONDITIONAL_CREATE) {
        marker.close(); // there only the close takes the name
      }
    } catch (FileAlreadyExistsException | RemoteException e) {
      throw locked; // another process is taking over
    }
    try {
      if (!holder.equals(holder(storage))) {
        throw locked;
      }
      // Reported by the caller with what recovery did (takenOver()): logged once, there.
      LOG.info("{}: taking over the lock of a writer that is gone ({}): {}", storage.location(),
          gone, holder);
      breakLock(storage);
      WriterLock lock = create(storage, operation, lanes);
      lock.takenOver = LockLine.forPeople(holder.strip()) + " (" + gone + ")";
      lock.fenced = FencedParts.ofHolder(holder);
      return lock;
    } finally {
      marker.close();
      storage.delete(ArchiveLayout.LOCK_TAKEOVER);
    }
  }

  /**
   * Why the lock's holder is known to be gone, or null if it may be alive. Only evidence that
   * cannot be wrong counts: a pid that no longer runs where the holder's pid meant one process
   * (the same boot and pid namespace, see {@link ProcessSpace}); a holder alive by that test is
   * never taken over. Otherwise, on HDFS, the holder's lease having expired. The host name is no
   * evidence: containers share one, and it may be a fallback.
   */
  static String whyGone(ArchiveStorage storage, String holder) throws IOException {
    LockLine line = LockLine.parse(holder);
    if (line.pid() >= 0 && line.space().sameAs(ProcessSpace.current())) {
      if (ProcessHandle.of(line.pid()).isEmpty()) {
        return "process " + line.pid() + " no longer runs on this machine (same boot id and "
            + "pid namespace)";
      }
      return null; // alive here: the file system's view cannot overrule that
    }
    if (storage.writerIsGone(ArchiveLayout.LOCK)) {
      return "its client stopped renewing its HDFS lease past the soft limit";
    }
    return null;
  }

  private static WriterLock create(ArchiveStorage storage, String operation, int lanes)
      throws IOException {
    boolean conditional = storage.profile() == StorageProfile.CONDITIONAL_CREATE;
    // Not even an attempt to create it: on HDFS, creating a file that another client holds
    // open starts the recovery of that client's lease once it is past the soft limit, which
    // would take the lock from a holder that whyGone finds alive on this machine. A store that
    // creates conditionally has no lease, and its PUT refuses a lock that is there: asking
    // first would only cost a HEAD and a LIST.
    if (!conditional && storage.exists(ArchiveLayout.LOCK)) {
      throw locked(storage);
    }
    String token = UUID.randomUUID().toString();
    String holder = operation + " by " + System.getProperty("user.name") + "@" + hostName()
        + " (pid " + ProcessHandle.current().pid() + ") since " + Instant.now();
    byte[] line = LockLine.format(holder, token, ProcessSpace.current(), lanes)
        .getBytes(StandardCharsets.UTF_8);
    if (conditional) {
      // An object appears at close, and only then can the store refuse it.
      ArchiveOutput file = storage.create(ArchiveLayout.LOCK, 0);
      try (file) {
        file.stream().write(line);
      } catch (FileAlreadyExistsException e) {
        throw locked(storage);
      } catch (IOException e) {
        // Another writer's recovery aborted the upload, say: whoever holds the lock now, this
        // writer does not, and has changed nothing.
        if (storage.exists(ArchiveLayout.LOCK)) {
          throw locked(storage);
        }
        throw new ConcurrentCommitException(storage.location(), "taking the lock failed: "
            + e.getMessage(), e);
      }
      return new WriterLock(storage, file, token);
    }
    ArchiveOutput file;
    try {
      file = storage.create(ArchiveLayout.LOCK, 0);
    } catch (FileAlreadyExistsException e) {
      throw locked(storage);
    } catch (FileNotFoundException e) {
      // A lock is never created with its directory: that is gone, removed by a recovery (a
      // create that never committed) while this writer was about to lock it.
      throw new ConcurrentCommitException(storage.location(), "the archive's directory was "
          + "removed while this writer was taking its lock (by a recovery of a create that "
          + "never committed); nothing was changed", e);
    } catch (RemoteException e) {
      if (storage.exists(ArchiveLayout.LOCK)) {
        throw locked(storage);
      }
      throw e;
    }
    try {
      file.stream().write(line);
      file.sync(); // the holder's line must survive a power loss to tell who held the lock
      file.confirmWriter(); // on HDFS: the line's length reaches the NameNode, for its readers
    } catch (IOException e) {
      // Another writer broke this lock before its line was written (on HDFS: recovered its
      // lease, then deleted it): this writer holds nothing, and has changed nothing.
      closeQuietly(file, e);
      String now = line(storage);
      if (now != null && !now.contains(token)) {
        throw locked(storage);
      }
      try {
        file.deleteByIdentity(); // this writer's own file, if still there (HDFS)
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw new ConcurrentCommitException(storage.location(), "taking the lock failed: "
          + e.getMessage(), e);
    }
    return new WriterLock(storage, file, token);
  }

  private static void closeQuietly(ArchiveOutput file, IOException failure) {
    try {
      file.close();
    } catch (IOException | RuntimeException e) {
      if (e != failure) {
        failure.addSuppressed(e);
      }
    }
  }

  /**
   * Removes a lock whose holder died: on HDFS its lease is recovered first, so a lock that a
   * live writer still holds open is closed under it rather than left half-owned. Returns what
   * its holder may still add to the archive (nothing where there was no lock).
   */
  public static FencedParts breakStale(ArchiveStorage storage) throws IOException {
    String holder = breakLock(storage);
    storage.delete(ArchiveLayout.LOCK_TAKEOVER); // of a process that died taking over
    return holder == null ? FencedParts.NONE : FencedParts.ofHolder(holder);
  }

  /** Removes the lock; returns its line, "" where it could not be read, or null if absent. */
  private static String breakLock(ArchiveStorage storage) throws IOException {
    if (!storage.exists(ArchiveLayout.LOCK)) {
      return null;
    }
    storage.recoverLease(ArchiveLayout.LOCK);
    String holder;
    try {
      holder = line(storage);
    } catch (IOException e) {
      holder = null; // then the holder is assumed to write in as many lanes as any
    }
    storage.delete(ArchiveLayout.LOCK);
    return holder == null ? "" : holder;
  }

  /**
   * True when the lock exists and its line contains {@code token}: the work of a driver that
   * died, or whose lock was broken, must not be committed under another writer's lock.
   */
  public static boolean heldBy(ArchiveStorage storage, String token) throws IOException {
    String line = line(storage);
    return line != null && line.contains(token);
  }

  /**
   * {@code storage} for the holder of this lock: every rename and delete through it first
   * confirms the lock (see {@link FencedStorage}). Not on a store that commits by conditional
   * create: there the commit and the collector fence writers by generation (see {@link
   * ConditionalPublish}, {@link GarbageCollector}), and a lock confirmed per delete would cost a
   * request each; the lock is confirmed there only to explain a failure.
   */
  ArchiveStorage fence(ArchiveStorage archive) throws IOException {
    if (archive.profile() == StorageProfile.CONDITIONAL_CREATE) {
      return FencedStorage.explaining(archive, this::confirm);
    }
    return new FencedStorage(archive, this::confirm);
  }

  /**
   * Returns when the lock is still this writer's; throws {@link LockLostException} when it was
   * taken over or broken. On HDFS the NameNode confirms it (a sync of the open lock file that
   * needs this client's lease on that very file); elsewhere the lock file must still hold this
   * writer's token.
   */
  synchronized void confirm() throws IOException {
    if (released) {
      throw new LockLostException(storage.location(), "it was released");
    }
    try {
      if (file.confirmWriter()) {
        return;
      }
    } catch (IOException e) {
      String line = line(storage);
      if (line == null || !line.contains(token) || leaseLost(e)) {
        throw new LockLostException(storage.location(), describe(line) + "; the file system "
            + "refused this writer's lock file: " + e.getMessage(), e);
      }
      throw e; // the lock file is this writer's: a failure that says nothing about the lock
    }
    String line = line(storage);
    if (line == null || !line.contains(token)) {
      throw new LockLostException(storage.location(), describe(line));
    }
  }

  /** The NameNode's answer when the file is gone or its lease is another's. */
  private static boolean leaseLost(IOException e) {
    if (e instanceof FileNotFoundException) {
      return true;
    }
    return e instanceof RemoteException remote
        && (remote.getClassName().endsWith(".LeaseExpiredException")
            || remote.getClassName().endsWith(".FileNotFoundException"));
  }

  private String describe(String line) {
    if (line == null) {
      return "the lock file is gone";
    }
    return line.contains(token) ? "another client is recovering the lease of its lock file"
        : "the lock is now " + line.trim();
  }

  /** The lock file's line, or null when there is none. */
  private static String line(ArchiveStorage storage) throws IOException {
    return line(storage, ArchiveLayout.LOCK);
  }

  /** The error for a lock held by another writer, naming it (without the lock's fields). */
  private static ArchiveLockedException locked(ArchiveStorage storage) {
    return new ArchiveLockedException(storage.location(), LockLine.forPeople(holder(storage)));
  }

  /**
   * True when the lock's line can be read. A line that cannot be read (on HDFS, the length of a
   * lock file whose writer stopped may not be obtainable from the DataNodes) cannot tell a
   * holder alive on this machine from one gone, and the lease is no evidence against a holder
   * alive here: such a lock stays, until its line can be read or it is broken by hand.
   */
  private static boolean readable(ArchiveStorage storage) {
    try {
      String line = line(storage);
      return line != null && !line.isBlank();
    } catch (IOException e) {
      return false;
    }
  }

  private static String holder(ArchiveStorage storage) {
    String unknown = "another writer (lock file " + storage.location(ArchiveLayout.LOCK) + ")";
    try {
      String line = line(storage);
      return line == null || line.isBlank() ? unknown : line.trim();
    } catch (IOException e) {
      return unknown;
    }
  }

  /** For people only: the name resolved if it can be, else the kernel's, else a placeholder. */
  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      try {
        return ProcessSpace.readKernelFile("/proc/sys/kernel/hostname");
      } catch (IOException | SecurityException unreadable) {
        return "unknown-host";
      }
    }
  }

  /**
   * Closes and deletes the lock file, but never another writer's lock that replaced it after a
   * takeover: on HDFS it is deleted by its inode id, so a new file of that name is left alone;
   * elsewhere it is first moved to a name of this writer's own, then deleted if it holds this
   * writer's token, and moved back if it does not.
   */
  public void release() throws IOException {
    if (released) {
      return;
    }
    synchronized (this) {
      released = true;
    }
    try {
      file.close();
    } catch (IOException e) {
      // Its lease was recovered or it was deleted (a takeover, a broken lock, a failed create's
      // directory removed): what follows deletes it only if it is still this writer's.
      LOG.debug("{}: closing the lock file failed: {}", storage.location(), e.toString());
    }
    if (!file.deleteByIdentity()) {
      releaseByName();
    }
  }

  private void releaseByName() throws IOException {
    if (!storage.exists(ArchiveLayout.LOCK)) {
      return;
    }
    if (storage.profile() == StorageProfile.CONDITIONAL_CREATE) {
      // No rename to park it with. The lock only keeps honest writers apart there: deleting a
      // lock that replaced this one in between costs its holder nothing but that.
      String line = line(storage);
      if (line != null && line.contains(token)) {
        storage.delete(ArchiveLayout.LOCK);
      }
      return;
    }
    String parked = ArchiveLayout.LOCK_RELEASED_PREFIX + token;
    try {
      storage.rename(ArchiveLayout.LOCK, parked);
    } catch (IOException e) {
      if (!storage.exists(ArchiveLayout.LOCK)) {
        return; // removed by whoever broke it
      }
      throw e;
    }
    String line = line(storage, parked);
    if (line == null || line.contains(token)) {
      storage.delete(parked);
      return;
    }
    LOG.warn("{}: the lock had been taken over, leaving it to its holder: {}",
        storage.location(), line.trim());
    try {
      storage.rename(parked, ArchiveLayout.LOCK);
    } catch (IOException e) {
      // A third writer locked in the moment it was away: its holder's next commit fails with
      // LockLostException (its token is not in the lock), so it commits nothing.
      LOG.warn("{}: could not put back the lock of {}: {}", storage.location(), line.trim(),
          e.toString());
      storage.delete(parked);
    }
  }

  private static String line(ArchiveStorage storage, String name) throws IOException {
    if (!storage.exists(name)) {
      return null;
    }
    try (ArchiveInput in = storage.open(name)) {
      int n = (int) Math.min(in.length(), 1024);
      return new String(in.readFully(0, n), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return null; // removed since
    }
  }

  @Override
  public void close() throws IOException {
    release();
  }
}
