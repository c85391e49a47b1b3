package org.hpf.internal.format;

/**
 * Finds, in names taken in increasing {@link MemberNames#ORDER}, a name that lies below another
 * ({@code a/b} and {@code a/b/c}), so that it would be a file and a directory at once.
 *
 * <p>The names that start with a given string are contiguous in that order, so a name can only
 * lie below a name that is a prefix of the name before it. This keeps the previous name and the
 * lengths of its prefixes that were names themselves: at most one entry per character of a
 * name, whatever the number of names.
 *
 * <p>Each name is marked as new or old; a conflict counts only if at least one of the two is new
 * (an archive's old names are not re-judged when names are added to it).
 */
public final class NameNesting {
  /** Two names of which one lies below the other. */
  public record Conflict(String file, boolean fileNew, String below, boolean belowNew) {}

  private String previous = "";
  private int[] lengths = new int[16];
  private boolean[] isNew = new boolean[16];
  private int depth;
  private int newOnStack;

  /**
   * Takes the next name, which must be greater than the one before; returns the conflict it
   * makes with an earlier name, or null.
   */
  public Conflict next(String name, boolean nameIsNew) {
    int common = commonPrefix(previous, name);
    while (depth > 0 && lengths[depth - 1] > common) {
      pop();
    }
    Conflict conflict = null;
    for (int i = 0; i < depth && conflict == null; i++) {
      int length = lengths[i];
      if (length < name.length() && name.charAt(length) == '/' && (isNew[i] || nameIsNew)) {
        conflict = new Conflict(name.substring(0, length), isNew[i], name, nameIsNew);
      }
    }
    push(name.length(), nameIsNew);
    previous = name;
    return conflict;
  }

  /** True while a new name taken could still have later names below it. */
  public boolean holdsNewNames() {
    return newOnStack > 0;
  }

  private static int commonPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  private void push(int length, boolean nameIsNew) {
    if (depth == lengths.length) {
      lengths = java.util.Arrays.copyOf(lengths, depth * 2);
      isNew = java.util.Arrays.copyOf(isNew, depth * 2);
    }
    lengths[depth] = length;
    isNew[depth] = nameIsNew;
    depth++;
    if (nameIsNew) {
      newOnStack++;
    }
  }

  private void pop() {
    depth--;
    if (isNew[depth]) {
      newOnStack--;
    }
  }
}
