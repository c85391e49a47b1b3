package org.hpf.crash;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Storage that "kills the writer" at its k-th mutating operation (create, write, flush, sync,
 * rename, delete, mkdirs): that operation and every later one throw {@link Crash} and have no
 * effect, and streams are abandoned unclosed, so bytes a writer had not flushed never reach the
 * file system, exactly as when a process dies. Reads keep working (a dead process reads
 * nothing, and the writer never reads after the crash point).
 */
class CrashingStorage extends FaultyStorage {
  /** The simulated death; an Error so that no writer code handles it as an I/O failure. */
  static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String operation) {
      super("simulated crash at " + operation, null, false, false);
    }
  }

  private final int killAt;
  private final Predicate<String> killWhere;
  private final AtomicInteger operations = new AtomicInteger();
  private final Set<String> kinds = ConcurrentHashMap.newKeySet();
  private volatile boolean dead;

  /** @param killAt the 1-based operation that crashes; 0 never crashes (counts only) */
  CrashingStorage(ArchiveStorage delegate, int killAt) {
    this(delegate, killAt, operation -> false);
  }

  /** Crashes at the first mutating operation {@code killWhere} accepts ("write part-#"). */
  CrashingStorage(ArchiveStorage delegate, Predicate<String> killWhere) {
    this(delegate, 0, killWhere);
  }

  private CrashingStorage(ArchiveStorage delegate, int killAt, Predicate<String> killWhere) {
    super(delegate);
    this.killAt = killAt;
    this.killWhere = killWhere;
  }

  int operations() {
    return operations.get();
  }

  /** The kinds of operations seen, numbers masked: "write part-#", "hsync _journal-#", ... */
  Set<String> kinds() {
    return kinds;
  }

  boolean crashed() {
    return dead;
  }

  @Override
  void mutation(String operation) {
    if (dead) {
      throw new Crash(operation + " after death");
    }
    kinds.add(operation.replaceAll("[0-9]+", "#"));
    if (operations.incrementAndGet() == killAt || killWhere.test(operation)) {
      dead = true;
      throw new Crash(operation + " #" + killAt);
    }
  }

  @Override
  void access(String operation) {
    if (dead) {
      throw new Crash(operation + " after death");
    }
  }
}
