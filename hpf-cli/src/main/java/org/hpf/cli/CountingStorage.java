package org.hpf.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.LongConsumer;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.ForwardingStorage;

/**
 * An {@link ArchiveStorage} that reports the bytes written to new files whose names start with
 * a prefix, for progress of work whose writer reports none (a compaction's part copies).
 * Everything else passes straight through.
 */
final class CountingStorage extends ForwardingStorage {
  private final String prefix;
  private final LongConsumer written;

  CountingStorage(ArchiveStorage storage, String prefix, LongConsumer written) {
    super(storage);
    this.prefix = prefix;
    this.written = written;
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    return counted(name, delegate().create(name, blockSize));
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    return counted(name, delegate().createMergedPart(name, blockSize));
  }

  private ArchiveOutput counted(String name, ArchiveOutput file) {
    return name.startsWith(prefix) ? new CountingOutput(file, written) : file;
  }

  private static final class CountingOutput extends ForwardingOutput {
    private final OutputStream stream;

    CountingOutput(ArchiveOutput file, LongConsumer written) {
      super(file);
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
      super.flush();
    }

    @Override
    public void sync() throws IOException {
      stream.flush();
      super.sync();
    }

    @Override
    public void close() throws IOException {
      // Not the filter's close: that would flush, then close the file's stream, not the file.
      stream.flush();
      super.close();
    }
  }
}
