package org.hpf.internal.write;

import java.io.IOException;

/**
 * A member was refused because another member of the same change failed in a way that leaves
 * the merge in no known state (a partial entry, a part or journal write that failed). The
 * change can only be aborted; {@link #getCause} is the failure that stopped it, the one to
 * report.
 */
final class AbandonedMergeException extends IOException {
  private static final long serialVersionUID = 1L;

  AbandonedMergeException(Throwable cause) {
    super("a member failed part-way, so this change can only be aborted: " + cause, cause);
  }
}
