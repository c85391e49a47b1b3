package org.hpf.crash;

import java.io.IOException;
import java.util.List;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * One actor's storage in a schedule: every call it makes passes through its {@link CallGate}
 * first, and every delete is checked, at the moment it happens, against the generations the
 * archive keeps then ({@link KeptFiles}): a delete of a file that a kept generation names is
 * recorded as a loss, whatever the actor believes.
 */
final class SteppedStorage extends FaultyStorage {
  private final ArchiveStorage delegate;
  private final CallGate stepper;
  private final KeptFiles kept;

  SteppedStorage(ArchiveStorage delegate, CallGate stepper, KeptFiles kept) {
    super(delegate);
    this.delegate = delegate;
    this.stepper = stepper;
    this.kept = kept;
  }

  @Override
  void mutation(String operation) {
    stepper.step(operation);
  }

  @Override
  void access(String operation) {
    stepper.step(operation);
  }

  @Override
  public boolean exists(String name) throws IOException {
    stepper.step("exists " + name);
    return delegate.exists(name);
  }

  @Override
  public ArchiveInput open(String name, long length) throws IOException {
    stepper.step("open " + name);
    return delegate.open(name, length);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    stepper.step("list " + dir);
    return delegate.list(dir);
  }

  @Override
  public void delete(String name) throws IOException {
    stepper.step("delete " + name);
    kept.checkDelete(name);
    delegate.delete(name);
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    stepper.step("deleteDirectory " + dir);
    kept.checkDelete(dir);
    delegate.deleteDirectory(dir);
  }

  @Override
  public void deleteRoot() throws IOException {
    stepper.step("deleteRoot");
    kept.checkDeleteRoot();
    delegate.deleteRoot();
  }

  @Override
  public int abortPendingUploads() throws IOException {
    stepper.step("abortPendingUploads");
    return delegate.abortPendingUploads();
  }

  @Override
  public boolean writerIsGone(String name) throws IOException {
    stepper.step("writerIsGone " + name);
    return delegate.writerIsGone(name);
  }

  @Override
  public RootAccess rootAccess() throws IOException {
    stepper.step("rootAccess");
    return delegate.rootAccess();
  }

  @Override
  public RootAccess setRootAccess(RootAccess access) throws IOException {
    stepper.step("setRootAccess");
    return delegate.setRootAccess(access);
  }

  @Override
  public void deleteEmptyDirectories(String dir) throws IOException {
    stepper.step("deleteEmptyDirectories " + dir);
    delegate.deleteEmptyDirectories(dir);
  }
}
