package org.hpf;

/** The directory holds no committed manifest: not an archive, or a create that crashed. */
public class NoCommittedGenerationException extends HpfException {
  private static final long serialVersionUID = 1L;

  public NoCommittedGenerationException(String archive, boolean journalPresent) {
    super(archive + " has no committed generation"
        + (journalPresent ? " (a create was interrupted: its journal is still there)"
            : " (is it an hpf archive?)"));
  }
}
