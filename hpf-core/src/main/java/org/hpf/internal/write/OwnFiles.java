package org.hpf.internal.write;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ConcurrentCommitException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.ForwardingStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage of a writer on an object store, which knows the files this writer created: there
 * a create fails only at close, where another writer's object took the name, so a file's name
 * alone does not tell whose it is. A writer cleaning up after a failure deletes only files whose
 * create succeeded here ({@link #deleteCreated}), since the lock does not exclude another writer
 * there. (A create that fails removes the directory whole, behind a removal marker:
 * {@link UncommittedCreate}.)
 */
final class OwnFiles extends ForwardingStorage {
  private static final Logger LOG = LoggerFactory.getLogger(OwnFiles.class);
  private final Set<String> own = ConcurrentHashMap.newKeySet();
  /** The archive a create writes (its files carry its id), or null for other changes. */
  private final ArchiveId creating;

  OwnFiles(ArchiveStorage storage) {
    this(storage, null);
  }

  /**
   * For a create of the archive {@code creating}: what a create wrote is removed whole when it
   * never commits, so its names are free again for another create (a writer paused past a
   * broken lock may still hold them as its own). A file of its name is deleted only where it
   * carries this create's archive id.
   */
  OwnFiles(ArchiveStorage storage, ArchiveId creating) {
    super(storage);
    this.creating = creating;
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
    if (own.contains(name) && carriesThisCreate(name)) {
      super.delete(name);
    }
    own.remove(name);
  }

  private boolean carriesThisCreate(String name) throws IOException {
    if (creating == null) {
      return true;
    }
    try (ArchiveInput in = open(name)) {
      // A file too short for a header (a stream closed after a failure) carries no archive's
      // id, and no generation can name it.
      return in.length() < FileHeader.SIZE || FileHeader.archiveIdOf(in.readFully(0,
          FileHeader.SIZE)).equals(creating);
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
  }

  /**
   * Deletes every file created through this storage but those a kept generation names (a
   * generation built on a commit of this writer that it did not know had counted).
   */
  void deleteOwn() throws IOException {
    for (String name : Set.copyOf(own)) {
      try {
        deleteCreated(name);
      } catch (KeptFileException e) {
        LOG.warn("{}: {}", location(), e.getMessage());
      }
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
