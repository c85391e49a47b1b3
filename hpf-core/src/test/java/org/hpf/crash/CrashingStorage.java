package org.hpf.crash;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.io.ArchiveInput;
import org.hpf.io.ArchiveOutput;
import org.hpf.io.ArchiveStorage;
import org.hpf.io.ForwardingStorage;

/**
 * Storage that "kills the writer" at its k-th mutating operation (create, write, flush, sync,
 * rename, delete, mkdirs): that operation and every later one throw {@link Crash} and have no
 * effect, and streams are abandoned unclosed, so bytes a writer had not flushed never reach the
 * file system, exactly as when a process dies. Reads keep working (a dead process reads
 * nothing, and the writer never reads after the crash point).
 */
final class CrashingStorage extends ForwardingStorage {
  /** The simulated death; an Error so that no writer code handles it as an I/O failure. */
  static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(String operation) {
      super("simulated crash at " + operation, null, false, false);
    }
  }

  private final ArchiveStorage delegate;
  private final int killAt;
  private final AtomicInteger operations = new AtomicInteger();
  private volatile boolean dead;

  /** @param killAt the 1-based operation that crashes; 0 never crashes (counts only) */
  CrashingStorage(ArchiveStorage delegate, int killAt) {
    super(delegate);
    this.delegate = delegate;
    this.killAt = killAt;
  }

  int operations() {
    return operations.get();
  }

  boolean crashed() {
    return dead;
  }

  private void step(String operation) {
    if (dead) {
      throw new Crash(operation + " after death");
    }
    if (operations.incrementAndGet() == killAt) {
      dead = true;
      throw new Crash(operation + " #" + killAt);
    }
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    step("create " + name);
    ArchiveOutput out = delegate.create(name, blockSize);
    return new ArchiveOutput() {
      private final OutputStream stream = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          step("write " + name);
          out.stream().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          step("write " + name);
          out.stream().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
          // Java-level buffer flushes are not durability points; flush()/sync() below are.
          if (dead) {
            throw new Crash("flush after death");
          }
          out.stream().flush();
        }
      };

      @Override
      public OutputStream stream() {
        return stream;
      }

      @Override
      public void flush() throws IOException {
        step("hflush " + name);
        out.flush();
      }

      @Override
      public void sync() throws IOException {
        step("hsync " + name);
        out.sync();
      }

      @Override
      public void close() throws IOException {
        step("close " + name);
        out.close();
      }
    };
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    if (dead) {
      throw new Crash("open after death");
    }
    return delegate.open(name);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    if (dead) {
      throw new Crash("list after death");
    }
    return delegate.list(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    step("rename " + from);
    delegate.rename(from, to);
  }

  @Override
  public void delete(String name) throws IOException {
    step("delete " + name);
    delegate.delete(name);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    step("mkdirs " + dir);
    delegate.mkdirs(dir);
  }

  @Override
  public void recoverLease(String name) throws IOException {
    step("recoverLease " + name);
    delegate.recoverLease(name);
  }

  @Override
  public void deleteRoot() throws IOException {
    step("deleteRoot");
    delegate.deleteRoot();
  }

  @Override
  public void close() {}
}
