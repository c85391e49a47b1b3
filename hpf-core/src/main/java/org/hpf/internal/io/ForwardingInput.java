package org.hpf.internal.io;

import java.io.IOException;

/** An input that passes everything to another; subclasses change what they need. */
public abstract class ForwardingInput implements ArchiveInput {
  protected final ArchiveInput delegate;

  protected ForwardingInput(ArchiveInput delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public long length() {
    return delegate.length();
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length)
      throws IOException {
    delegate.readFully(position, buffer, offset, length);
  }

  @Override
  public boolean lengthAsRecorded() {
    return delegate.lengthAsRecorded();
  }

  @Override
  public ArchiveInput unwrap() {
    return delegate.unwrap();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
