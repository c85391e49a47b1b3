package org.hpf;

/** A member name breaks the naming rules of docs/FORMAT.md. */
public class InvalidNameException extends HpfException {
  private static final long serialVersionUID = 1L;

  public InvalidNameException(String name, String rule) {
    super("invalid name '" + name + "': " + rule);
  }
}
