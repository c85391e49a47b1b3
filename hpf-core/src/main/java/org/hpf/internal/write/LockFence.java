package org.hpf.internal.write;

import java.io.IOException;

/** Confirms that a writer still holds the archive's lock. */
@FunctionalInterface
interface LockFence {
  /** Returns while the lock is held; throws {@link org.hpf.LockLostException} once it is not. */
  void confirm() throws IOException;
}
