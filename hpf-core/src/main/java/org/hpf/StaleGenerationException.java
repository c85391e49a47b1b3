package org.hpf;

/** A file of the reader's generation was removed by a later writer: reopen the reader. */
public class StaleGenerationException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a generation.
   *
   * @param archive the archive
   * @param generation the generation the reader reads
   * @param file the file of it that was removed
   */
  public StaleGenerationException(String archive, long generation, String file) {
    super(archive + ": generation " + generation + " is no longer kept (" + file
        + " was removed by a later writer); reopen the archive");
  }
}
