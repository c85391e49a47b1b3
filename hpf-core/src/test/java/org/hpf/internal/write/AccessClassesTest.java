package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameHasher;
import org.junit.jupiter.api.Test;

/** The access classes of a generation: ids kept, new ones journaled first, at most 65,535. */
class AccessClassesTest {
  private static Manifest withClasses(int count) {
    List<MemberAccess> classes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      classes.add(new MemberAccess("u" + i, "g", 0644));
    }
    return new Manifest(ArchiveId.random(), 1, 0, NameHasher.MURMUR3_128_ID, 0, 0, 0, 1, 1, 1,
        List.of(), List.of(), List.of(), classes);
  }

  @Test
  void keepsTheBasesIdsAndJournalsEachNewClassOnceBeforeItsId() throws Exception {
    AccessClasses classes = new AccessClasses(withClasses(3));
    List<String> journaled = new ArrayList<>();
    classes.journalTo((id, access) -> journaled.add(id + " " + access.owner()));
    assertEquals(2, classes.idOf(new MemberAccess("u1", "g", 0644)));
    assertEquals(4, classes.idOf(new MemberAccess("new", "g", 0644)));
    assertEquals(4, classes.idOf(new MemberAccess("new", "g", 0644)));
    assertEquals(5, classes.idOf(new MemberAccess("new", "g", 04644)));
    assertEquals(List.of("4 new", "5 new"), journaled);
    assertEquals(5, classes.all().size());
  }

  @Test
  void aJournalThatFailsIntroducesNothing() {
    AccessClasses classes = new AccessClasses(null);
    classes.journalTo((id, access) -> {
      throw new java.io.IOException("disk full");
    });
    assertThrows(java.io.IOException.class, () -> classes.idOf(new MemberAccess("a", "b", 0)));
    assertEquals(List.of(), classes.all());
  }

  @Test
  void refusesTheClassAfterThe65535th() throws Exception {
    AccessClasses classes = new AccessClasses(withClasses(Manifest.MAX_ACCESSES));
    assertEquals(Manifest.MAX_ACCESSES, classes.idOf(new MemberAccess("u65534", "g", 0644)));
    LimitExceededException e = assertThrows(LimitExceededException.class,
        () -> classes.idOf(new MemberAccess("one-more", "g", 0644)));
    assertTrue(e.getMessage().contains("65535"), e.getMessage());
  }

  @Test
  void recoveryDefinesClassesInTheirOrderOnly() throws Exception {
    AccessClasses classes = new AccessClasses(withClasses(2));
    classes.define(3, new MemberAccess("x", "y", 0600), "j");
    assertThrows(CorruptArchiveException.class,
        () -> classes.define(5, new MemberAccess("z", "y", 0600), "j"));
    assertEquals(3, classes.idOf(new MemberAccess("x", "y", 0600)));
  }
}
