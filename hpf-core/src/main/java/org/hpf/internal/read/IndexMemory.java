package org.hpf.internal.read;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Heap that readers may give index records read whole ({@link ResidentRecords}), shared by every
 * reader opened with it: an {@code hpf://} file system gives one to all the archives it has
 * open, so that their records together never take more, however many archives it reads.
 */
public final class IndexMemory {
  private final long bytes;
  private final AtomicLong free;

  /** Memory of {@code bytes} bytes, none of it used yet. */
  public IndexMemory(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("index memory of " + bytes + " bytes");
    }
    this.bytes = bytes;
    this.free = new AtomicLong(bytes);
  }

  public long bytes() {
    return bytes;
  }

  /** Bytes the readers hold now. */
  public long used() {
    return bytes - free.get();
  }

  /** Takes {@code n} bytes if that many are free. */
  boolean reserve(long n) {
    long left;
    do {
      left = free.get();
      if (left < n) {
        return false;
      }
    } while (!free.compareAndSet(left, left - n));
    return true;
  }

  void release(long n) {
    free.addAndGet(n);
  }
}
