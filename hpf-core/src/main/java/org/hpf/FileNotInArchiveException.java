package org.hpf;

/**
 * The requested name is not a member of the archive's current generation. Through
 * {@code hpf://} the same condition is Hadoop's {@link java.io.FileNotFoundException}.
 */
public class FileNotInArchiveException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a name.
   *
   * @param archive the archive's location
   * @param name the name that is not a member
   */
  public FileNotInArchiveException(String archive, String name) {
    super("'" + name + "' is not in archive " + archive);
  }
}
