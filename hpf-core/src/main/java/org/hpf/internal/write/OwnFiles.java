package org.hpf.internal.write;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ConcurrentCommitException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.ForwardingStorage;

/**
 * The storage of a writer on an object store, which knows the files this writer created: there
 * a create fails only at close, where another writer's object took the name, so a file's name
 * alone does not tell whose it is. A writer cleaning up after a failure deletes only files whose
 * create succeeded here ({@link #deleteCreated}); a create that fails removes exactly those
 * ({@link #deleteAll}), never the directory with all it holds, since the lock does not exclude
 * another writer there.
 */
final class OwnFiles extends ForwardingStorage {
  private final Set<String> own = ConcurrentHashMap.newKeySet();

  OwnFiles(ArchiveStorage storage) {
    super(storage);
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    return new Owned(name, super.create(name, blockSize));
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    return new Owned(name, super.createMergedPart(name, blockSize));
  }

  @Override
  public boolean createdHere(String name) {
    return own.contains(name);
  }

  @Override
  public void deleteCreated(String name) throws IOException {
    if (own.remove(name)) {
      super.delete(name);
    }
  }

  /** Deletes every file created through this storage, then the directories if left empty. */
  void deleteAll() throws IOException {
    deleteOwn();
    deleteEmptyDirectories(Manifest.DIR);
  }

  /** Deletes every file created through this storage. */
  void deleteOwn() throws IOException {
    for (String name : Set.copyOf(own)) {
      deleteCreated(name);
    }
  }

  /** An output whose file is this writer's once its first close succeeded. */
  private final class Owned extends ForwardingOutput {
    private final String name;
    /**
     * Set by the first close: a stream whose close failed (another writer's object took the
     * name) may close again without error, doing nothing, and that must not make the other
     * writer's file this one's.
     */
    private boolean closed;

    Owned(String name, ArchiveOutput out) {
      super(out);
      this.name = name;
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try {
        super.close();
      } catch (FileAlreadyExistsException e) {
        throw new ConcurrentCommitException(location(), "its file " + name + " was created by "
            + "another writer first", e);
      }
      own.add(name);
    }
  }
}
