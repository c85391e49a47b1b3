package org.hpf.crash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.HadoopStorage;

/**
 * A {@link CrashingStorage} whose crash also takes what the file system had not made durable:
 * after the writer died, {@link #loseUndurableBytes} cuts every file the writer created back to
 * its last durability point and keeps a random prefix of what followed (a torn last write). A
 * file written but never made durable may come back empty.
 *
 * <p>Create, rename and delete are durable once they return (HDFS logs them to the NameNode's
 * edit log first; for the local file system the tests assume the same of its directories). So a
 * file renamed into place before its bytes were synced is caught: its new name survives, its
 * bytes need not.
 */
final class LosingStorage extends CrashingStorage {
  /** What kind of crash it is, which decides what survives. */
  enum Loss {
    /**
     * The writer's process dies: the file system keeps what was flushed ({@code hflush}),
     * synced or closed; of the bytes after that, any prefix may have reached it.
     */
    PROCESS,
    /**
     * The machine loses power: only synced ({@code hsync}) bytes are safe, in closed files too;
     * of the bytes after that, any prefix may survive, followed by zeros when the file's length
     * reached the disk before its data did.
     */
    MACHINE
  }

  /** One file this writer created: everything written to it and how much of it is durable. */
  private static final class Written {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long durable;
  }

  private final Path root;
  private final Loss loss;
  private final Map<String, Written> files = new HashMap<>();

  LosingStorage(HadoopStorage delegate, int killAt, Loss loss) {
    super(delegate, killAt);
    this.root = Path.of(delegate.root().toUri());
    this.loss = loss;
  }

  @Override
  ArchiveOutput created(String name, ArchiveOutput out) {
    Written file = new Written();
    synchronized (files) {
      files.put(name, file);
    }
    return new ArchiveOutput() {
      private final OutputStream stream = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.stream().write(b, off, len);
          synchronized (file) {
            file.bytes.write(b, off, len);
          }
        }

        @Override
        public void flush() throws IOException {
          out.stream().flush();
        }
      };

      @Override
      public OutputStream stream() {
        return stream;
      }

      @Override
      public void flush() throws IOException {
        out.flush();
        if (loss == Loss.PROCESS) {
          durable(file);
        }
      }

      @Override
      public void sync() throws IOException {
        out.sync();
        durable(file);
      }

      @Override
      public void close() throws IOException {
        out.close();
        if (loss == Loss.PROCESS) {
          durable(file);
        }
      }
    };
  }

  private static void durable(Written file) {
    synchronized (file) {
      file.durable = file.bytes.size();
    }
  }

  @Override
  public void rename(String from, String to) throws IOException {
    super.rename(from, to);
    synchronized (files) {
      Written file = files.remove(from);
      if (file != null) {
        files.put(to, file);
      }
    }
  }

  @Override
  public void delete(String name) throws IOException {
    super.delete(name);
    synchronized (files) {
      files.remove(name);
    }
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    super.deleteDirectory(dir);
    synchronized (files) {
      files.keySet().removeIf(name -> name.startsWith(dir + "/"));
    }
  }

  /**
   * Rewrites every file the dead writer created as the crash left it; returns how many lost
   * bytes. Call once the writer is dead.
   */
  long loseUndurableBytes(Random random) throws IOException {
    long lost = 0;
    synchronized (files) {
      for (Map.Entry<String, Written> e : files.entrySet()) {
        Path path = root.resolve(e.getKey());
        if (!Files.exists(path)) {
          continue; // its create was the operation that crashed
        }
        byte[] written = e.getValue().bytes.toByteArray();
        long durable = e.getValue().durable;
        int kept = (int) (durable + survivingTail(random, written.length - durable));
        byte[] left = Arrays.copyOf(written, kept);
        if (loss == Loss.MACHINE && kept < written.length && random.nextBoolean()) {
          left = Arrays.copyOf(left, kept + 1 + random.nextInt(written.length - kept));
        }
        Files.write(path, left);
        lost += written.length - kept;
      }
    }
    return lost;
  }

  /** None, all, or any prefix of the bytes after the last durability point. */
  private static long survivingTail(Random random, long undurable) {
    if (undurable == 0) {
      return 0;
    }
    return switch (random.nextInt(4)) {
      case 0 -> 0;
      case 1 -> undurable;
      default -> (long) (random.nextDouble() * (undurable + 1));
    };
  }
}
