package org.hpf.internal.io;

import java.io.IOException;
import java.util.List;
import org.hpf.internal.access.RootAccess;

/**
 * An {@link ArchiveStorage} that passes every call to another one: subclasses override only
 * what they change (a storage that counts the bytes it writes, one that writes parts with
 * another policy).
 */
public abstract class ForwardingStorage implements ArchiveStorage {
  private final ArchiveStorage delegate;

  protected ForwardingStorage(ArchiveStorage delegate) {
    this.delegate = delegate;
  }

  /** The storage calls go to. */
  protected ArchiveStorage delegate() {
    return delegate;
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public String location(String name) {
    return delegate.location(name);
  }

  @Override
  public boolean exists(String name) throws IOException {
    return delegate.exists(name);
  }

  @Override
  public StorageProfile profile() throws IOException {
    return delegate.profile();
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    return delegate.create(name, blockSize);
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    return delegate.open(name);
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    return delegate.createMergedPart(name, blockSize);
  }

  @Override
  public org.hpf.internal.hdfs.HdfsReport afterCommit(org.hpf.internal.format.Manifest manifest) {
    return delegate.afterCommit(manifest);
  }

  @Override
  public org.apache.hadoop.fs.BlockLocation[] blockLocations(ArchiveInput file, long offset,
      long length) throws IOException {
    return delegate.blockLocations(file, offset, length);
  }

  @Override
  public boolean writerIsGone(String name) throws IOException {
    return delegate.writerIsGone(name);
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    delegate.deleteDirectory(dir);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    return delegate.list(dir);
  }

  @Override
  public void rename(String from, String to) throws IOException {
    delegate.rename(from, to);
  }

  @Override
  public void delete(String name) throws IOException {
    delegate.delete(name);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    delegate.mkdirs(dir);
  }

  @Override
  public boolean rootIsFile() throws IOException {
    return delegate.rootIsFile();
  }

  @Override
  public RootAccess createPrivateRoot(String dir) throws IOException {
    return delegate.createPrivateRoot(dir);
  }

  @Override
  public RootAccess rootAccess() throws IOException {
    return delegate.rootAccess();
  }

  @Override
  public RootAccess setRootAccess(RootAccess access) throws IOException {
    return delegate.setRootAccess(access);
  }

  @Override
  public boolean rootExists() throws IOException {
    return delegate.rootExists();
  }

  @Override
  public long defaultBlockSize() {
    return delegate.defaultBlockSize();
  }

  @Override
  public boolean rootExistsNonEmpty() throws IOException {
    return delegate.rootExistsNonEmpty();
  }

  @Override
  public void recoverLease(String name) throws IOException {
    delegate.recoverLease(name);
  }

  @Override
  public void deleteRoot() throws IOException {
    delegate.deleteRoot();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  @Override
  public void deleteEmptyDirectories(String dir) throws IOException {
    delegate.deleteEmptyDirectories(dir);
  }

  @Override
  public int abortPendingUploads() throws IOException {
    return delegate.abortPendingUploads();
  }

  @Override
  public void deleteCreated(String name) throws IOException {
    delegate.deleteCreated(name);
  }

  @Override
  public boolean createdHere(String name) {
    return delegate.createdHere(name);
  }
}
