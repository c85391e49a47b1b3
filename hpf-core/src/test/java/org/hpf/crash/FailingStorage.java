package org.hpf.crash;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Storage whose k-th operation after {@link #failAt} (any: create, write, flush, sync, close,
 * rename, delete, mkdirs, open, list) throws an IOException and has no effect, as a full disk,
 * a lost DataNode or a permission change would; every other operation works, so the writer's
 * own cleanup runs and must leave the archive as it was.
 */
final class FailingStorage extends FaultyStorage {
  /** The injected failure: an IOException like any the file system may throw. */
  static final class Failure extends IOException {
    private static final long serialVersionUID = 1L;

    Failure(String operation) {
      super("injected failure at " + operation);
    }
  }

  private final AtomicInteger steps = new AtomicInteger();
  private volatile int failAt;
  private volatile boolean failed;

  FailingStorage(ArchiveStorage delegate) {
    super(delegate);
  }

  /** Counts operations from now on; the {@code k}-th (1-based) fails, none if 0. */
  void failAt(int k) {
    steps.set(0);
    failed = false;
    failAt = k;
  }

  /** Operations since {@link #failAt}. */
  int steps() {
    return steps.get();
  }

  boolean failed() {
    return failed;
  }

  @Override
  void mutation(String operation) throws IOException {
    step(operation);
  }

  @Override
  void access(String operation) throws IOException {
    step(operation);
  }

  private void step(String operation) throws IOException {
    if (steps.incrementAndGet() == failAt) {
      failed = true;
      throw new Failure(operation + " #" + failAt);
    }
  }
}
