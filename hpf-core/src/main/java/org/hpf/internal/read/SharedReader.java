package org.hpf.internal.read;

import java.io.IOException;

/**
 * A reader of one generation that calls, streams and listings share, and that is replaced by a
 * newer one while some of them still use it: retired, it is closed when its last user is done.
 */
public final class SharedReader {
  private final HpfReader reader;
  private int users;
  private boolean retired;
  private boolean closed;

  public SharedReader(HpfReader reader) {
    this.reader = reader;
  }

  public HpfReader reader() {
    return reader;
  }

  /** Counts one more user; false once the reader is closed (the caller takes a newer one). */
  public synchronized boolean acquire() {
    if (closed) {
      return false;
    }
    users++;
    return true;
  }

  /** One user is done; closes a retired reader when it was the last. */
  public void release() throws IOException {
    synchronized (this) {
      users--;
      if (!retired || users > 0 || closed) {
        return;
      }
      closed = true;
    }
    reader.close();
  }

  /** No new user will come: closes the reader now, or when the last user is done. */
  public void retire() throws IOException {
    synchronized (this) {
      retired = true;
      if (users > 0 || closed) {
        return;
      }
      closed = true;
    }
    reader.close();
  }
}
