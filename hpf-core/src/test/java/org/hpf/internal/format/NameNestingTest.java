package org.hpf.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NameNestingTest {
  /** Pieces that sort around '/': '-' and '.' before it, '0' and 'a' after. */
  private static final String[] PIECES = {"a", "b", "-", ".", "0", "/", "\u00e9", "\ud83d\ude00"};

  @Test
  void findsAFileAboveALaterName() {
    NameNesting nesting = new NameNesting();
    assertNull(nesting.next("a/b", true));
    assertNull(nesting.next("a/b-1", true));
    assertNull(nesting.next("a/b.txt/c", true));
    assertEquals(new NameNesting.Conflict("a/b", true, "a/b/c", false),
        nesting.next("a/b/c", false));
  }

  @Test
  void oldNamesAmongThemselvesDoNotCount() {
    NameNesting nesting = new NameNesting();
    assertNull(nesting.next("a", false));
    assertNull(nesting.next("a/b", false));
    assertFalse(nesting.holdsNewNames());
    assertNull(nesting.next("a0", true));
    assertTrue(nesting.holdsNewNames());
    assertNull(nesting.next("a1", false));
    assertFalse(nesting.holdsNewNames(), "nothing after 'a1' can lie below 'a0'");
  }

  /** Against the definition, on random sorted sets of names built from pieces around '/'. */
  @Test
  void agreesWithTheDefinition() {
    Random random = new Random(42);
    for (int round = 0; round < 3000; round++) {
      TreeMap<String, Boolean> names = new TreeMap<>(MemberNames.ORDER);
      int count = 1 + random.nextInt(8);
      while (names.size() < count) {
        StringBuilder name = new StringBuilder();
        int pieces = 1 + random.nextInt(5);
        for (int i = 0; i < pieces; i++) {
          name.append(PIECES[random.nextInt(PIECES.length)]);
        }
        if (isName(name.toString())) {
          names.put(name.toString(), random.nextBoolean());
        }
      }
      NameNesting nesting = new NameNesting();
      NameNesting.Conflict found = null;
      List<String> seen = new ArrayList<>();
      for (var name : names.entrySet()) {
        found = nesting.next(name.getKey(), name.getValue());
        if (found != null) {
          break;
        }
        seen.add(name.getKey());
      }
      String expected = null;
      for (String a : names.keySet()) {
        for (String b : names.keySet()) {
          if (b.startsWith(a + "/") && (names.get(a) || names.get(b))
              && (expected == null || MemberNames.compare(b, expected) < 0)) {
            expected = b;
          }
        }
      }
      assertEquals(expected, found == null ? null : found.below(), names.toString());
      if (found != null) {
        assertTrue(found.below().startsWith(found.file() + "/"), found.toString());
      }
    }
  }

  private static boolean isName(String name) {
    try {
      MemberNames.check(name);
      return true;
    } catch (org.hpf.InvalidNameException e) {
      return false;
    }
  }
}
