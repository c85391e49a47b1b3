package org.hpf;

/** Two sources map to the same member name. */
public class DuplicateNameException extends HpfException {
  private static final long serialVersionUID = 1L;

  public DuplicateNameException(String name, String firstSource, String secondSource) {
    super("duplicate name '" + name + "': from " + firstSource + " and " + secondSource);
  }
}
