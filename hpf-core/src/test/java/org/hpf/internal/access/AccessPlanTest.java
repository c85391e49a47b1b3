package org.hpf.internal.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AccessPlanTest {
  private static final RootAccess DEFAULT = new RootAccess("alice", "staff", 0755);

  /** Who may read a file of this mode in a directory of that mode, both alice's. */
  private static Readers readers(int dirMode, String fileOwner, String fileGroup, int fileMode) {
    return Readers.ofDirectory("root", "supergroup", 0755)
        .and(Readers.ofDirectory(fileOwner, fileGroup, dirMode))
        .and(Readers.ofFile(fileOwner, fileGroup, fileMode));
  }

  @Test
  void aFileIsReadByWhatItsBitsAndEveryDirectoryAboveItAllow() {
    assertEquals(Readers.EVERYONE, readers(0755, "alice", "staff", 0644));
    // The default umask's 0644 inside a private home: only alice.
    assertEquals(new Readers(false, null, "alice"), readers(0700, "alice", "staff", 0644));
    assertEquals(new Readers(false, "staff", "alice"), readers(0750, "alice", "staff", 0640));
    // Others' bits do not count for the group: HDFS checks the group's bits for its members.
    assertEquals(new Readers(false, null, "alice"), readers(0755, "alice", "staff", 0604));
    // Nor the group's for the owner, who is checked by the owner's bits alone.
    assertEquals(Readers.NOBODY, readers(0755, "alice", "staff", 0044));
    // A directory of another group lets nobody of the file's group through.
    assertEquals(new Readers(false, null, "alice"),
        Readers.ofDirectory("alice", "other", 0750).and(Readers.ofFile("alice", "staff", 0640)));
  }

  @Test
  void sourcesEveryoneReadsLeaveTheArchiveAsTheFileSystemGaveIt() {
    AccessPlan plan = new AccessPlan();
    plan.add("/data/a", "alice", "staff", Readers.EVERYONE);
    plan.add("/data/b", "bob", "staff", Readers.EVERYONE);
    AccessPlan.Decision decision = plan.decide(DEFAULT, true, Map.of());
    assertEquals(DEFAULT, decision.access());
    assertTrue(decision.narrowed().isEmpty());
    assertFalse(decision.losesAccess());
  }

  @Test
  void onePrivateSourceMakesTheArchiveItsOwnersOnlyAndSaysWhoLostWhat() {
    AccessPlan plan = new AccessPlan();
    plan.add("/data/public.txt", "alice", "staff", Readers.EVERYONE);
    plan.add("/user/alice/diary", "alice", "staff", readers(0700, "alice", "staff", 0644));
    AccessPlan.Decision decision = plan.decide(DEFAULT, true, Map.of());
    assertEquals(new RootAccess("alice", "staff", 0700), decision.access());
    assertEquals(List.of("everyone could read /data/public.txt but not the archive, which also "
        + "holds /user/alice/diary (readable by user alice only)"), decision.narrowed());
    assertFalse(decision.losesAccess(), "alice owns the archive");
  }

  @Test
  void theOneGroupEverySourceAdmitsKeepsReadingANewArchive() {
    AccessPlan plan = new AccessPlan();
    plan.add("/team/a", "alice", "team", readers(0750, "alice", "team", 0640));
    plan.add("/team/b", "bob", "team", readers(0750, "bob", "team", 0640));
    plan.add("/pub/c", "bob", "staff", Readers.EVERYONE);
    AccessPlan.Decision decision = plan.decide(DEFAULT, true, Map.of());
    assertEquals(new RootAccess("alice", "team", 0750), decision.access());
    assertFalse(decision.losesAccess(), "bob reads through group team, his file's group");
  }

  @Test
  void anOwnerWhoWouldLoseTheirOwnFilesIsNamed() {
    AccessPlan plan = new AccessPlan();
    plan.add("/user/alice/a", "alice", "alice", readers(0700, "alice", "alice", 0600));
    plan.add("/user/bob/b1", "bob", "bob", readers(0700, "bob", "bob", 0600));
    plan.add("/user/bob/b2", "bob", "bob", readers(0700, "bob", "bob", 0600));
    AccessPlan.Decision decision = plan.decide(new RootAccess("hdfs", "supergroup", 0755), true,
        Map.of());
    assertEquals(new RootAccess("hdfs", "supergroup", 0700), decision.access());
    assertEquals(List.of(new AccessPlan.Loss("alice", 1, "/user/alice/a"),
        new AccessPlan.Loss("bob", 2, "/user/bob/b1")), decision.losses());
    String message = AccessMessages.refusal("/archives/users.hpf", decision);
    assertTrue(message.contains("alice (1 file, e.g. /user/alice/a), bob (2 files"), message);
    assertTrue(message.contains(AccessMessages.ALLOW_HINT), message);
    assertTrue(message.contains(AccessMessages.SPLIT_HINT), "two owners: " + message);
    List<String> allowed = AccessMessages.narrowed("/archives/users.hpf", decision);
    assertTrue(allowed.stream().anyMatch(n -> n.startsWith("access taken, as allowed, on "
        + "/archives/users.hpf: alice (1 file, e.g. /user/alice/a), bob (2 files, e.g. "
        + "/user/bob/b1) can no longer read their own files")), allowed::toString);
  }

  @Test
  void anAppendOnlyNarrowsAndRefusesOnlyWhenOtherOwnersLoseTheirMembers() {
    AccessPlan plan = new AccessPlan();
    plan.add("/user/alice/private", "alice", "staff", readers(0700, "alice", "staff", 0600));
    AccessPlan.Decision mine = plan.decide(DEFAULT, false, Map.of("alice", Set.of("staff")));
    assertEquals(new RootAccess("alice", "staff", 0700), mine.access());
    assertEquals(List.of("everyone could read the archive's members so far but not any more, "
        + "since it now also holds /user/alice/private (readable by user alice only)"),
        mine.narrowed());
    assertFalse(mine.losesAccess(), "only alice's members were in it");
    AccessPlan.Decision shared = plan.decide(DEFAULT, false,
        Map.of("alice", Set.of("staff"), "bob", Set.of("staff")));
    assertEquals(List.of(new AccessPlan.Loss("bob", -1, "members archived so far")),
        shared.losses());
    assertTrue(AccessMessages.refusal("/a.hpf", shared)
        .contains("from bob (the members archived so far)"));
    AccessPlan same = new AccessPlan();
    same.add("/pub/x", "alice", "staff", Readers.EVERYONE);
    assertTrue(same.decide(DEFAULT, false, Map.of("bob", Set.of("staff"))).narrowed().isEmpty());
    // An append never moves the archive to another group: that would open its old members.
    AccessPlan team = new AccessPlan();
    team.add("/team/a", "alice", "team", readers(0750, "alice", "team", 0640));
    assertEquals(new RootAccess("alice", "staff", 0700),
        team.decide(DEFAULT, false, Map.of()).access());
  }

  @Test
  void mergedPlansDecideAsOnePlanOverAllTheirSources() {
    AccessPlan first = new AccessPlan();
    first.add("/team/a", "alice", "team", readers(0750, "alice", "team", 0640));
    AccessPlan second = new AccessPlan();
    second.add("/other/b", "alice", "other", readers(0750, "alice", "other", 0640));
    AccessPlan.Decision decision = first.merge(second).decide(DEFAULT, true, Map.of());
    assertEquals(new RootAccess("alice", "staff", 0700), decision.access());
    assertEquals(2, first.merge(second).members());
  }
}
