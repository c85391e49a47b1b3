package org.hpf.internal.io;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An {@link ArchiveOutput} that passes every call to another one: subclasses override only what
 * they change (an output that knows whose file it is once closed).
 */
public abstract class ForwardingOutput implements ArchiveOutput {
  private final ArchiveOutput delegate;

  protected ForwardingOutput(ArchiveOutput delegate) {
    this.delegate = delegate;
  }

  /** The output calls go to. */
  protected ArchiveOutput delegate() {
    return delegate;
  }

  @Override
  public OutputStream stream() {
    return delegate.stream();
  }

  @Override
  public void flush() throws IOException {
    delegate.flush();
  }

  @Override
  public void sync() throws IOException {
    delegate.sync();
  }

  @Override
  public boolean confirmWriter() throws IOException {
    return delegate.confirmWriter();
  }

  @Override
  public boolean deleteByIdentity() throws IOException {
    return delegate.deleteByIdentity();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
