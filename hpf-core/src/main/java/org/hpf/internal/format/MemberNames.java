package org.hpf.internal.format;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import org.hpf.InvalidNameException;

/** The rules for member names (docs/FORMAT.md, "Names and limits") and their order. */
public final class MemberNames {
  public static final int MAX_BYTES = 4096;

  /** Increasing unsigned lexicographic order of the UTF-8 bytes: the order of names files. */
  public static final Comparator<String> ORDER = MemberNames::compare;

  private MemberNames() {}

  /** Compares by code points, which orders exactly as the unsigned UTF-8 bytes do. */
  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  public static byte[] utf8(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  /** Throws if {@code name} may not be a member name. */
  public static void check(String name) throws InvalidNameException {
    if (name.isEmpty()) {
      throw new InvalidNameException(name, "empty");
    }
    if (utf8(name).length > MAX_BYTES) {
      throw new InvalidNameException(name, "longer than " + MAX_BYTES + " UTF-8 bytes");
    }
    if (name.indexOf('\0') >= 0) {
      throw new InvalidNameException(name, "contains NUL");
    }
    if (name.startsWith("/") || name.endsWith("/")) {
      throw new InvalidNameException(name, "starts or ends with '/'");
    }
    for (String component : name.split("/", -1)) {
      if (component.isEmpty() || component.equals(".") || component.equals("..")) {
        throw new InvalidNameException(name, "has an empty, '.' or '..' component");
      }
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isSurrogate(name.charAt(i))
          && !(Character.isHighSurrogate(name.charAt(i)) && i + 1 < name.length()
              && Character.isLowSurrogate(name.charAt(++i)))) {
        throw new InvalidNameException(name, "is not valid Unicode (lone surrogate)");
      }
    }
  }
}
