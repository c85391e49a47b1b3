package org.hpf;

import java.util.List;

/** An append brought names the archive already has, and replacing was not asked for. */
public class NameExistsException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about names.
   *
   * @param archive the archive
   * @param names the first few of the names it has
   * @param total how many of the names it has
   */
  public NameExistsException(String archive, List<String> names, int total) {
    super(archive + " already has " + total + " of the names to append (" + String.join(", ",
        names) + (total > names.size() ? ", ..." : "") + "); use replace to overwrite them");
  }
}
