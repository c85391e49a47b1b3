package org.hpf.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.LongConsumer;
import org.hpf.io.ArchiveInput;
import org.hpf.io.ArchiveOutput;
import org.hpf.io.ArchiveStorage;

/**
 * An {@link ArchiveStorage} that reports the bytes written to new files whose names start with
 * a prefix, for progress of work whose writer reports none (a compaction's part copies).
 * Everything else passes straight through.
 */
final class CountingStorage implements ArchiveStorage {
  private final ArchiveStorage storage;
  private final String prefix;
  private final LongConsumer written;

  CountingStorage(ArchiveStorage storage, String prefix, LongConsumer written) {
    this.storage = storage;
    this.prefix = prefix;
    this.written = written;
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    ArchiveOutput file = storage.create(name, blockSize);
    return name.startsWith(prefix) ? new CountingOutput(file, written) : file;
  }

  @Override
  public String location() {
    return storage.location();
  }

  @Override
  public String location(String name) {
    return storage.location(name);
  }

  @Override
  public boolean exists(String name) throws IOException {
    return storage.exists(name);
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    return storage.open(name);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    return storage.list(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    storage.rename(from, to);
  }

  @Override
  public void delete(String name) throws IOException {
    storage.delete(name);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    storage.mkdirs(dir);
  }

  @Override
  public boolean rootExists() throws IOException {
    return storage.rootExists();
  }

  @Override
  public long defaultBlockSize() {
    return storage.defaultBlockSize();
  }

  @Override
  public boolean rootExistsNonEmpty() throws IOException {
    return storage.rootExistsNonEmpty();
  }

  @Override
  public void recoverLease(String name) throws IOException {
    storage.recoverLease(name);
  }

  @Override
  public void deleteRoot() throws IOException {
    storage.deleteRoot();
  }

  @Override
  public void close() throws IOException {
    storage.close();
  }

  private static final class CountingOutput implements ArchiveOutput {
    private final ArchiveOutput file;
    private final OutputStream stream;

    CountingOutput(ArchiveOutput file, LongConsumer written) {
      this.file = file;
      this.stream = new FilterOutputStream(file.stream()) {
        @Override
        public void write(int b) throws IOException {
          out.write(b);
          written.accept(1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
          written.accept(len);
        }
      };
    }

    @Override
    public OutputStream stream() {
      return stream;
    }

    @Override
    public void flush() throws IOException {
      stream.flush();
      file.flush();
    }

    @Override
    public void sync() throws IOException {
      stream.flush();
      file.sync();
    }

    @Override
    public void close() throws IOException {
      // Not the filter's close: that would flush, then close the file's stream, not the file.
      stream.flush();
      file.close();
    }
  }
}
