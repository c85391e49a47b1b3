package org.hpf;

/** A member name breaks the naming rules of docs/FORMAT.md. */
public class InvalidNameException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a name.
   *
   * @param name the name
   * @param rule the rule it breaks
   */
  public InvalidNameException(String name, String rule) {
    super("invalid name '" + name + "': " + rule);
  }
}
