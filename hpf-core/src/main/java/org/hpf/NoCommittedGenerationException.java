package org.hpf;

/** The directory holds no committed manifest: not an archive, or a create that crashed. */
public class NoCommittedGenerationException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * For a directory known to have no {@code _manifests} directory unless a journal is there.
   *
   * @param archive the archive
   * @param journalPresent whether an interrupted create's journal is there
   */
  public NoCommittedGenerationException(String archive, boolean journalPresent) {
    this(archive, journalPresent, false);
  }

  /**
   * An error about a directory.
   *
   * @param archive the directory
   * @param journalPresent whether an interrupted create's journal is there
   * @param manifestsDirectoryPresent whether it has a {@code _manifests} directory
   */
  public NoCommittedGenerationException(String archive, boolean journalPresent,
      boolean manifestsDirectoryPresent) {
    super(message(archive, journalPresent, manifestsDirectoryPresent));
  }

  private NoCommittedGenerationException(String message) {
    super(message);
  }

  /**
   * For an archive whose first generation's name a removal marker holds: recovery is removing
   * what a create that never committed left, or died doing so.
   *
   * @param archive the archive
   * @return the error
   */
  public static NoCommittedGenerationException beingRemoved(String archive) {
    return new NoCommittedGenerationException(archive + " has no committed generation: what a "
        + "create that never committed left is being removed (hpf recover finishes that)");
  }

  /**
   * For a file given as an archive, which is a directory.
   *
   * @param archive the file
   * @return the error
   */
  public static NoCommittedGenerationException aFile(String archive) {
    return new NoCommittedGenerationException(archive + " is not an hpf archive: it is a file,"
        + " not a directory");
  }

  /**
   * For a directory where a create never committed, which recovery leaves as it is because it
   * also holds files no archive has: removing what the create left could take them too.
   *
   * @param archive the archive's directory
   * @param foreign the first such names, relative to the directory
   * @return the error
   */
  public static NoCommittedGenerationException holdingForeignFiles(String archive,
      java.util.List<String> foreign) {
    return new NoCommittedGenerationException(archive + " has no committed generation, and "
        + "holds files that are not an archive's (" + String.join(", ", foreign) + "): recovery "
        + "left everything in place; move those files elsewhere, then run hpf recover again to "
        + "remove what the create that never committed left");
  }

  private static String message(String archive, boolean journal, boolean manifestsDirectory) {
    if (journal) {
      return archive + " has no committed generation (a create was interrupted: its journal is"
          + " still there)";
    }
    // Every archive has _manifests from its first commit on: without it, this is no archive.
    return manifestsDirectory
        ? archive + " has no committed generation: its _manifests directory holds no manifest"
        : archive + " is not an hpf archive: no _manifests directory";
  }
}
