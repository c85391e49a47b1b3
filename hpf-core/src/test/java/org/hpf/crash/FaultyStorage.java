package org.hpf.crash;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;

/**
 * Storage that asks before every operation whether it may happen: the seam through which the
 * crash and failure tests inject their faults. Mutating operations (create, write, flush, sync,
 * close, rename, delete, mkdirs) go through {@link #mutation}, and once done through
 * {@link #applied} (a fault there is a reply lost after the operation took effect); the others
 * (open, list, and flushes of Java-level buffers, which are not durability points) through
 * {@link #access}.
 */
abstract class FaultyStorage extends ForwardingStorage {
  private final ArchiveStorage delegate;

  FaultyStorage(ArchiveStorage delegate) {
    super(delegate);
    this.delegate = delegate;
  }

  /** Throws if the mutating {@code operation} must not happen. */
  abstract void mutation(String operation) throws IOException;

  /** Throws if the non-mutating {@code operation} must not happen. */
  abstract void access(String operation) throws IOException;

  /** Called after the mutating {@code operation} took effect; throws to lose its reply. */
  void applied(String operation) throws IOException {}

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    mutation("create " + name);
    ArchiveOutput out = delegate.create(name, blockSize);
    applied("create " + name);
    return created(name, faulty(name, out));
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    mutation("create " + name);
    ArchiveOutput out = delegate.createMergedPart(name, blockSize);
    applied("create " + name);
    return created(name, faulty(name, out));
  }

  /** Every file created through this storage, merged parts included, passes through here. */
  ArchiveOutput created(String name, ArchiveOutput file) {
    return file;
  }

  private ArchiveOutput faulty(String name, ArchiveOutput out) {
    return new ArchiveOutput() {
      private final OutputStream stream = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          mutation("write " + name);
          out.stream().write(b);
          applied("write " + name);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          mutation("write " + name);
          out.stream().write(b, off, len);
          applied("write " + name);
        }

        @Override
        public void flush() throws IOException {
          access("flush " + name);
          out.stream().flush();
        }
      };

      @Override
      public OutputStream stream() {
        return stream;
      }

      @Override
      public void flush() throws IOException {
        mutation("hflush " + name);
        out.flush();
        applied("hflush " + name);
      }

      @Override
      public void sync() throws IOException {
        mutation("hsync " + name);
        out.sync();
        applied("hsync " + name);
      }

      @Override
      public void close() throws IOException {
        mutation("close " + name);
        out.close();
        applied("close " + name);
      }
    };
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    access("open " + name);
    return delegate.open(name);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    access("list " + dir);
    return delegate.list(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    mutation("rename " + from);
    delegate.rename(from, to);
    applied("rename " + from);
  }

  @Override
  public void delete(String name) throws IOException {
    mutation("delete " + name);
    delegate.delete(name);
    applied("delete " + name);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    mutation("mkdirs " + dir);
    delegate.mkdirs(dir);
    applied("mkdirs " + dir);
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    mutation("deleteDirectory " + dir);
    delegate.deleteDirectory(dir);
    applied("deleteDirectory " + dir);
  }

  @Override
  public void recoverLease(String name) throws IOException {
    mutation("recoverLease " + name);
    delegate.recoverLease(name);
    applied("recoverLease " + name);
  }

  @Override
  public void deleteRoot() throws IOException {
    mutation("deleteRoot");
    delegate.deleteRoot();
    applied("deleteRoot");
  }

  @Override
  public void close() {}
}
