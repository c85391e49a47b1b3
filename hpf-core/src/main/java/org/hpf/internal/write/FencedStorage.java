package org.hpf.internal.write;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.LockLostException;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ExplainingOutputStream;
import org.hpf.internal.io.ForwardingStorage;

/**
 * The storage a lock holder changes the archive through. A writer whose lock was taken over
 * (it stalled past the HDFS lease's soft limit, say) must neither publish a manifest nor delete
 * files that now belong to the new holder: every rename (the manifest's rename is the commit
 * point), delete and lease recovery first confirms the lock ({@link LockFence}). Any other call
 * that fails (a file the new holder created already exists, the lease of a part was recovered)
 * confirms the lock too, so that the error says the lock was lost rather than what broke. Once
 * lost, every call that changes the archive fails at once with {@link LockLostException};
 * reads still run.
 *
 * <p>On a store that commits by conditional create the lock only keeps honest writers apart (the
 * commit and the collector fence writers by generation), and a confirmation before each delete
 * would cost a request: there only failures are explained ({@link #explaining}), so that a writer
 * whose lock was broken says so rather than what broke; only a manifest, a new part and an abort
 * of pending uploads confirm the lock first there.
 */
final class FencedStorage extends ForwardingStorage {
  /** A call to the storage. */
  @FunctionalInterface
  private interface Call<T> {
    T run() throws IOException;
  }

  /** A call that returns nothing. */
  @FunctionalInterface
  private interface Action {
    void run() throws IOException;
  }

  private final LockFence fence;
  /** Whether changes confirm the lock before they are made, or only failures are explained. */
  private final boolean confirmsChanges;
  /** Why the lock is known lost, once it is. */
  private volatile String lost;

  FencedStorage(ArchiveStorage storage, LockFence fence) {
    this(storage, fence, true);
  }

  private FencedStorage(ArchiveStorage storage, LockFence fence, boolean confirmsChanges) {
    super(storage);
    this.fence = fence;
    this.confirmsChanges = confirmsChanges;
  }

  /** A storage that confirms the lock only to explain a failure, and never before a change. */
  static FencedStorage explaining(ArchiveStorage storage, LockFence fence) {
    return new FencedStorage(storage, fence, false);
  }

  /** Returns when the lock is confirmed; remembers and throws a loss. */
  private void confirm() throws IOException {
    String known = lost;
    if (known != null) {
      throw new LockLostException(location(), known);
    }
    try {
      fence.confirm();
    } catch (LockLostException e) {
      lost = e.getMessage();
      throw e;
    }
  }

  /** Runs a call; a failure is reported as the lock's loss when the lock turns out lost. */
  private <T> T explained(Call<T> call) throws IOException {
    if (lost != null) {
      confirm();
    }
    try {
      return call.run();
    } catch (IOException e) {
      throw explain(e);
    }
  }

  private void fenced(Action action) throws IOException {
    if (confirmsChanges) {
      confirm();
    }
    explained(() -> {
      action.run();
      return null;
    });
  }

  private IOException explain(IOException failure) {
    if (failure instanceof LockLostException) {
      return failure;
    }
    try {
      confirm();
    } catch (LockLostException e) {
      e.addSuppressed(failure);
      return e;
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  /**
   * Runs a call that changes nothing: it still runs once the lock is lost (a writer refused at
   * its commit point reads the manifest back to tell whether its rename happened).
   */
  private <T> T read(Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (IOException e) {
      throw explain(e);
    }
  }

  @Override
  public boolean exists(String name) throws IOException {
    return read(() -> super.exists(name));
  }

  @Override
  public List<String> list(String dir) throws IOException {
    return read(() -> super.list(dir));
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    return read(() -> super.open(name));
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    if (!confirmsChanges && isManifest(name)) {
      // A commit by conditional create: a writer fenced off stops here, before it could commit
      // a generation the rightful holder would then find in its way.
      confirm();
    }
    return new Output(explained(() -> {
      try {
        return super.create(name, blockSize);
      } catch (FileAlreadyExistsException e) {
        if (!confirmsChanges || !ArchiveLayout.isCommitFile(name)) {
          throw e;
        }
        // A writer whose lock this one took over built the same generation and may still be
        // writing it; it can never commit it (its rename is fenced), so its file goes, through
        // the one deleter, which refuses a file a kept generation names.
        confirm();
        super.delete(name);
        return super.create(name, blockSize);
      }
    }));
  }

  private static boolean isManifest(String name) {
    String prefix = Manifest.DIR + "/";
    return name.startsWith(prefix) && Manifest.generationOf(name.substring(prefix.length())) >= 0;
  }

  /**
   * A new part. Confirmed first on every store: on an object store a part appears only when it
   * is closed, so this is what bounds the parts a writer whose lock was broken may still add to
   * one open per merge lane ({@link FencedParts}).
   */
  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    confirm();
    return new Output(explained(() -> super.createMergedPart(name, blockSize)));
  }

  /** Confirmed first: the uploads may be the rightful holder's once this lock is lost. */
  @Override
  public int abortPendingUploads() throws IOException {
    confirm();
    return explained(super::abortPendingUploads);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    explained(() -> {
      super.mkdirs(dir);
      return null;
    });
  }

  @Override
  public RootAccess setRootAccess(RootAccess access) throws IOException {
    if (confirmsChanges) {
      confirm();
    }
    return explained(() -> super.setRootAccess(access));
  }

  @Override
  public void rename(String from, String to) throws IOException {
    fenced(() -> super.rename(from, to));
  }

  @Override
  public void deleteCreated(String name) throws IOException {
    fenced(() -> super.deleteCreated(name));
  }

  @Override
  public void delete(String name) throws IOException {
    fenced(() -> super.delete(name));
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    fenced(() -> super.deleteDirectory(dir));
  }

  @Override
  public void deleteRoot() throws IOException {
    fenced(super::deleteRoot);
  }

  @Override
  public void recoverLease(String name) throws IOException {
    fenced(() -> super.recoverLease(name));
  }

  /** A file written through the fenced storage: its failures are explained as well. */
  private final class Output implements ArchiveOutput {
    private final ArchiveOutput file;
    private final OutputStream stream;

    Output(ArchiveOutput file) {
      this.file = file;
      this.stream = new ExplainingOutputStream(file.stream(), FencedStorage.this::explain,
          this::close);
    }

    @Override
    public OutputStream stream() {
      return stream;
    }

    @Override
    public void flush() throws IOException {
      explained(() -> {
        file.flush();
        return null;
      });
    }

    @Override
    public void sync() throws IOException {
      explained(() -> {
        file.sync();
        return null;
      });
    }

    @Override
    public void close() throws IOException {
      try {
        file.close();
      } catch (IOException e) {
        throw explain(e);
      }
    }
  }
}
