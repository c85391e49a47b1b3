package org.hpf;

/** Two sources map to the same member name. */
public class DuplicateNameException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * Two sources give one name.
   *
   * @param name the name
   * @param firstSource one source that gives it
   * @param secondSource the other
   */
  public DuplicateNameException(String name, String firstSource, String secondSource) {
    super("duplicate name '" + name + "': from " + firstSource + " and " + secondSource);
  }

  /**
   * The same name was added twice to one writer before a commit.
   *
   * @param name the name
   */
  public DuplicateNameException(String name) {
    super("duplicate name '" + name + "': added twice in one commit");
  }
}
