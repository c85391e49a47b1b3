package org.hpf.mapreduce;

import org.hpf.HpfException;

/** The archive job failed; the message says which job and why, from the failing task. */
public final class ArchiveJobException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a job.
   *
   * @param message which job, and why it failed
   */
  public ArchiveJobException(String message) {
    super(message);
  }
}
