package org.hpf.internal.io;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An output stream whose failures pass through a function before they reach the caller (one
 * that tells the cause, or makes a repeated failure a new exception), and whose close is its
 * file's.
 */
public final class ExplainingOutputStream extends OutputStream {
  /** What a failure is reported as. */
  @FunctionalInterface
  public interface Explain {
    IOException explain(IOException failure);
  }

  /** The close of the file the stream writes. */
  @FunctionalInterface
  public interface Close {
    void close() throws IOException;
  }

  private final OutputStream out;
  private final Explain explain;
  private final Close close;

  public ExplainingOutputStream(OutputStream out, Explain explain, Close close) {
    this.out = out;
    this.explain = explain;
    this.close = close;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw explain.explain(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw explain.explain(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw explain.explain(e);
    }
  }

  @Override
  public void close() throws IOException {
    close.close();
  }
}
