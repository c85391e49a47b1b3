package org.hpf.crash;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Storage whose k-th operation after {@link #failAt} throws an IOException, as a full disk, a
 * lost DataNode or a permission change would; every other operation works, so the writer's own
 * cleanup runs. How the operation fails is the storage's {@link Fault}: without effect (any
 * operation: create, write, flush, sync, close, rename, delete, mkdirs, open, list), or after
 * taking effect, as when the reply of a NameNode or DataNode is lost (mutating operations only;
 * a read has no effect to lose).
 */
final class FailingStorage extends FaultyStorage {
  /** How the failing operation fails. */
  enum Fault {
    /** The operation throws and has no effect. */
    WITHOUT_EFFECT,
    /** The operation takes effect, then throws: its reply was lost. */
    AFTER_EFFECT
  }

  /** The injected failure: an IOException like any the file system may throw. */
  static final class Failure extends IOException {
    private static final long serialVersionUID = 1L;

    Failure(String operation) {
      super("injected failure at " + operation);
    }
  }

  private final Fault fault;
  private final AtomicInteger steps = new AtomicInteger();
  private volatile int failAt;
  private volatile boolean failed;
  private volatile String failedAt;

  FailingStorage(ArchiveStorage delegate) {
    this(delegate, Fault.WITHOUT_EFFECT);
  }

  FailingStorage(ArchiveStorage delegate, Fault fault) {
    super(delegate);
    this.fault = fault;
  }

  /** Counts operations from now on; the {@code k}-th (1-based) fails, none if 0. */
  void failAt(int k) {
    steps.set(0);
    failed = false;
    failedAt = null;
    failAt = k;
  }

  /** Operations since {@link #failAt} (mutations only, for faults after the effect). */
  int steps() {
    return steps.get();
  }

  boolean failed() {
    return failed;
  }

  /** The operation that failed, or null. */
  String failedAt() {
    return failedAt;
  }

  @Override
  void mutation(String operation) throws IOException {
    if (fault == Fault.WITHOUT_EFFECT) {
      step(operation);
    }
  }

  @Override
  void applied(String operation) throws IOException {
    if (fault == Fault.AFTER_EFFECT) {
      step(operation + " (applied)");
    }
  }

  @Override
  void access(String operation) throws IOException {
    if (fault == Fault.WITHOUT_EFFECT) {
      step(operation);
    }
  }

  private void step(String operation) throws IOException {
    if (steps.incrementAndGet() == failAt) {
      failed = true;
      failedAt = operation;
      throw new Failure(operation + " #" + failAt);
    }
  }
}
