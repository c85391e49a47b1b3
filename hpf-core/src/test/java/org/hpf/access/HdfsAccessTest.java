package org.hpf.access;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.AccessLossException;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveSettings;
import org.hpf.ArchiveWriter;
import org.hpf.ExistingNames;
import org.hpf.HpfArchive;
import org.hpf.WriteSettings;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.write.SourceRemoval;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.AsUser;
import org.hpf.testing.EditLogModes;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Nobody reads through an archive's files what they could not read before: on a
 * MiniDFSCluster with permissions on, users alice and bob archive their homes (mode 0700, files
 * 0644 as the default umask makes them) and a shared tree, and each is refused what was not
 * theirs, through the API and by reading the archive's files directly.
 */
@Tag("hdfs")
class HdfsAccessTest {
  private static final Path BASE = new Path("/access");
  private static final Path ALICE_HOME = new Path(BASE, "user/alice");
  private static final Path BOB_HOME = new Path(BASE, "user/bob");
  private static final Path HOMES = new Path(BASE, "user");
  private static final Path SHARED = new Path(BASE, "pub");
  private static final Path ARCHIVES = new Path(BASE, "archives");

  private static DistributedFileSystem admin;
  private static Configuration conf;
  private static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alice", "team"});
  private static final UserGroupInformation BOB =
      UserGroupInformation.createUserForTesting("bob", new String[] {"bob"});

  @BeforeAll
  static void homes() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    admin = dfs.fileSystem();
    conf = dfs.configuration();
    admin.mkdirs(ARCHIVES);
    admin.setPermission(ARCHIVES, new FsPermission((short) 01777));
    home(ALICE_HOME, ALICE, "alice");
    home(BOB_HOME, BOB, "bob");
    admin.mkdirs(SHARED);
    admin.setOwner(SHARED, "alice", "alice");
    as(ALICE, fs -> {
      write(fs, new Path(SHARED, "readme.txt"), "for everyone");
      return null;
    });
  }

  private static void home(Path home, UserGroupInformation user, String name) throws Exception {
    admin.mkdirs(home);
    admin.setOwner(home, name, name);
    admin.setPermission(home, new FsPermission((short) 0700));
    as(user, fs -> {
      for (int i = 0; i < 3; i++) {
        write(fs, new Path(home, "docs/note-" + i + ".txt"), name + "'s note " + i);
      }
      return null;
    });
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    AsUser.write(fs, file, text);
  }

  /** Runs {@code action} as {@code user}, with a file system of their own. */
  private static <T> T as(UserGroupInformation user, AsUser.Action<T> action) throws Exception {
    return AsUser.run(user, admin.getUri(), conf, action);
  }

  private static WriteSettings settings(boolean allowAccessLoss) {
    return WriteSettings.builder().pinIndex(false).allowAccessLoss(allowAccessLoss).build();
  }

  /** Creates {@code archive} from {@code roots} as {@code user}. */
  private static void create(UserGroupInformation user, Path archive, boolean allowLoss,
      Path... roots) throws Exception {
    as(user, fs -> {
      try (ArchiveWriter writer = HpfArchive.create(fs.makeQualified(archive), conf,
          ArchiveSettings.defaults(), settings(allowLoss))) {
        writer.addTree(List.of(roots), ExistingNames.FAIL);
        writer.commit();
      }
      return null;
    });
  }

  private static byte[] get(UserGroupInformation user, Path archive, String name)
      throws Exception {
    return as(user, fs -> {
      try (ArchiveReader reader = HpfArchive.openReader(fs.makeQualified(archive), conf)) {
        return reader.get(name);
      }
    });
  }

  /** Reads the first part file of {@code archive} directly, as {@code user}. */
  private static void readPart(UserGroupInformation user, Path archive) throws Exception {
    Path part = null;
    for (FileStatus file : admin.listStatus(archive)) {
      if (file.getPath().getName().startsWith("part-")) {
        part = file.getPath();
      }
    }
    Path found = part;
    assertTrue(found != null, "no part file in " + archive);
    as(user, fs -> {
      try (var in = fs.open(found)) {
        return in.read(new byte[64]);
      }
    });
  }

  private static short mode(Path path) throws IOException {
    return admin.getFileStatus(path).getPermission().toShort();
  }

  @Test
  void aPrivateHomeArchivedByItsOwnerIsReadByNobodyElse() throws Exception {
    Path archive = new Path(ARCHIVES, "alice-home.hpf");
    create(ALICE, archive, false, ALICE_HOME);
    assertEquals(0700, mode(archive), "the archive of a 0700 home");
    assertArrayEquals("alice's note 1".getBytes(StandardCharsets.UTF_8),
        get(ALICE, archive, "docs/note-1.txt"));
    assertThrows(AccessControlException.class, () -> get(BOB, archive, "docs/note-1.txt"));
    assertThrows(AccessControlException.class, () -> readPart(BOB, archive));
    // bob could not read alice's notes before either
    assertThrows(AccessControlException.class,
        () -> as(BOB, fs -> fs.open(new Path(ALICE_HOME, "docs/note-1.txt"))));
  }

  @Test
  void filesEveryoneCouldReadStayReadableByEveryone() throws Exception {
    Path archive = new Path(ARCHIVES, "shared.hpf");
    create(ALICE, archive, false, SHARED);
    assertEquals(0755, mode(archive));
    assertArrayEquals("for everyone".getBytes(StandardCharsets.UTF_8),
        get(BOB, archive, "readme.txt"));
    readPart(BOB, archive);
  }

  @Test
  void archivingOtherOwnersPrivateFilesIsRefusedUnlessAllowed() throws Exception {
    Path archive = new Path(ARCHIVES, "both-homes.hpf");
    AccessLossException refused = assertThrows(AccessLossException.class,
        () -> create(UserGroupInformation.getCurrentUser(), archive, false, HOMES));
    assertTrue(refused.getMessage().contains("alice (3 files"), refused.getMessage());
    assertTrue(refused.getMessage().contains("bob (3 files"), refused.getMessage());
    assertFalse(admin.exists(archive), "a refused create leaves nothing");

    create(UserGroupInformation.getCurrentUser(), archive, true, HOMES);
    assertEquals(0700, mode(archive));
    assertThrows(AccessControlException.class,
        () -> get(ALICE, archive, "alice/docs/note-1.txt"));
    assertThrows(AccessControlException.class, () -> readPart(BOB, archive));
  }

  @Test
  void anAppendNarrowsTheArchiveBeforeWritingAndSaysSo() throws Exception {
    Path archive = new Path(ARCHIVES, "growing.hpf");
    create(ALICE, archive, false, SHARED);
    assertEquals(0755, mode(archive));
    assertArrayEquals("for everyone".getBytes(StandardCharsets.UTF_8),
        get(BOB, archive, "readme.txt"));

    List<String> warnings = append(archive);
    assertEquals(0700, mode(archive));
    assertTrue(warnings.get(0).contains("everyone could read the archive's members so far but "
        + "not any more"), warnings.toString());
    assertThrows(AccessControlException.class, () -> get(BOB, archive, "readme.txt"));
    assertThrows(AccessControlException.class, () -> readPart(BOB, archive));
    assertArrayEquals("alice's note 2".getBytes(StandardCharsets.UTF_8),
        get(ALICE, archive, "docs/note-2.txt"));
  }

  /** Appends alice's home to {@code archive} as alice; the commit's warnings. */
  private static List<String> append(Path archive) throws Exception {
    return as(ALICE, fs -> {
      try (ArchiveWriter writer = HpfArchive.openWriter(fs.makeQualified(archive), conf,
          settings(false))) {
        writer.addTree(List.of(ALICE_HOME), ExistingNames.FAIL);
        return writer.commit().warnings();
      }
    });
  }

  @Test
  void aDefaultAclOnTheParentLetsNobodyPastTheArchivesMode() throws Exception {
    Path team = new Path(BASE, "team");
    admin.mkdirs(team);
    admin.setOwner(team, "alice", "team");
    admin.setPermission(team, new FsPermission((short) 0750));
    as(ALICE, fs -> {
      write(fs, new Path(team, "plan.txt"), "the team's plan");
      fs.setPermission(new Path(team, "plan.txt"), new FsPermission((short) 0640));
      return null;
    });
    Path parent = new Path(ARCHIVES, "acl");
    admin.mkdirs(parent);
    admin.setPermission(parent, new FsPermission((short) 0777));
    // Every new file and directory below the parent would name bob as a reader.
    admin.modifyAclEntries(parent, List.of(new AclEntry.Builder().setScope(AclEntryScope.DEFAULT)
        .setType(AclEntryType.USER).setName("bob").setPermission(FsAction.READ_EXECUTE)
        .build()));
    Path archive = new Path(parent, "team.hpf");
    create(ALICE, archive, false, team);
    // The parent's default ACL, not the umask, gave the directory its bits: others lose them.
    assertEquals(0750, mode(archive) & 0757, "the team may read what the team could");
    assertEquals("team", admin.getFileStatus(archive).getGroup());
    assertThrows(AccessControlException.class, () -> readPart(BOB, archive));
    assertThrows(AccessControlException.class, () -> get(BOB, archive, "plan.txt"));
    assertArrayEquals("the team's plan".getBytes(StandardCharsets.UTF_8),
        get(ALICE, archive, "plan.txt"));
  }

  @Test
  void deletingSourcesKeepsAndNamesWhatTheUserMayNotDelete() throws Exception {
    Path tree = new Path(BASE, "alice-logs");
    Path locked = new Path(tree, "locked");
    admin.mkdirs(locked);
    admin.setOwner(tree, "alice", "alice");
    admin.setOwner(locked, "alice", "alice");
    as(ALICE, fs -> {
      write(fs, new Path(tree, "a.log"), "a");
      write(fs, new Path(locked, "b.log"), "b");
      return null;
    });
    // alice owns b.log but may not remove it from a directory she may not write
    admin.setPermission(locked, new FsPermission((short) 0555));
    Path archive = new Path(ARCHIVES, "alice-logs.hpf");
    create(ALICE, archive, false, tree);
    SourceRemoval.Result removed = as(ALICE, fs -> SourceRemoval.run(conf,
        fs.makeQualified(archive), List.of(fs.makeQualified(tree)),
        new SourceRemoval.Options(false, 2)));
    assertEquals(1, removed.filesDeleted(), removed.toString());
    assertEquals(1, removed.filesKept(), removed.toString());
    assertTrue(removed.firstKept().get(0).contains("b.log: permission denied"),
        removed.firstKept().toString());
    assertFalse(admin.exists(new Path(tree, "a.log")));
    assertTrue(admin.exists(new Path(locked, "b.log")));
  }

  @Test
  void deletingSourcesKeepsThoseWhoseReadersCannotReadTheArchive() throws Exception {
    Path tree = new Path(BASE, "alice-mixed");
    Path secret = new Path(tree, "private/secret.txt");
    admin.mkdirs(secret.getParent());
    admin.setOwner(tree, "alice", "alice");
    admin.setOwner(secret.getParent(), "alice", "alice");
    admin.setPermission(secret.getParent(), new FsPermission((short) 0700));
    as(ALICE, fs -> {
      write(fs, new Path(tree, "public.txt"), "anyone may read this");
      write(fs, secret, "alice's only");
      return null;
    });
    Path archive = new Path(ARCHIVES, "alice-mixed.hpf");
    create(ALICE, archive, false, tree);
    assertEquals(0700, mode(archive), "narrowed to the private file's readers");

    SourceRemoval.Result removed = as(ALICE, fs -> SourceRemoval.run(conf,
        fs.makeQualified(archive), List.of(fs.makeQualified(tree)),
        new SourceRemoval.Options(false, 2)));
    assertEquals(1, removed.filesDeleted(), removed.toString());
    assertFalse(admin.exists(secret), "alice alone could read it, and reads the archive");
    assertTrue(admin.exists(new Path(tree, "public.txt")), "bob could read it, not the archive");
    assertTrue(removed.firstKept().get(0).contains("public.txt: readable by everyone, and the "
        + "archive only by user alice: deleting it would take it from them"),
        removed.firstKept().toString());
  }

  /**
   * The MapReduce build, watched from the NameNode's edit log as its tasks work: no file or
   * directory of an archive of alice's private home, its staged work included, is ever created
   * or changed with a bit for group or others; and no file of an archive of the shared tree
   * is ever wider than it ends.
   */
  @Test
  void theArchiveJobCreatesEveryFileNarrow() throws Exception {
    Configuration jobs = org.hpf.fs.LocalJobs.configure(new Configuration(conf));
    // The superuser archives alice's files: allowed, the archive is then the superuser's alone.
    WriterOptions options = WriterOptions.builder()
        .settings(s -> s.threads(2).allowAccessLoss(true)).build();
    Path privateArchive = admin.makeQualified(new Path(ARCHIVES, "job-watched-alice.hpf"));
    Path publicArchive = admin.makeQualified(new Path(ARCHIVES, "job-watched-pub.hpf"));
    EditLogModes modes = EditLogModes.start(MiniDfs.shared());
    JobDriver.create(jobs, List.of(admin.makeQualified(ALICE_HOME)), privateArchive, options);
    JobDriver.create(jobs, List.of(admin.makeQualified(SHARED)), publicArchive, options);

    java.util.Map<String, List<Integer>> seen = modes.below(privateArchive.toUri().getPath());
    assertTrue(seen.keySet().stream().anyMatch(p -> p.contains("/part-")), seen::toString);
    List<String> open = new java.util.ArrayList<>();
    seen.forEach((path, all) -> all.stream().filter(m -> (m & 0077) != 0)
        .forEach(m -> open.add(path + " " + Integer.toOctalString(m))));
    assertEquals(List.of(), open);

    seen = modes.below(publicArchive.toUri().getPath());
    assertEquals(0755, mode(publicArchive), "everyone could read the shared tree");
    List<String> wider = new java.util.ArrayList<>();
    for (var e : seen.entrySet()) {
      Path path = new Path(e.getKey());
      if (admin.exists(path)) {
        int last = admin.getFileStatus(path).getPermission().toShort();
        e.getValue().stream().filter(m -> (m & ~last) != 0)
            .forEach(m -> wider.add(path + " was " + Integer.toOctalString(m) + ", is "
                + Integer.toOctalString(last)));
      }
    }
    assertEquals(List.of(), wider);
  }

  @Test
  void theArchiveJobNarrowsAndRefusesAsTheWriterDoes() throws Exception {
    Configuration jobs = org.hpf.fs.LocalJobs.configure(new Configuration(conf));
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(2)).build();
    Path both = admin.makeQualified(new Path(ARCHIVES, "job-both-homes.hpf"));
    AccessLossException refused = assertThrows(AccessLossException.class,
        () -> JobDriver.create(jobs, List.of(admin.makeQualified(HOMES)), both, options));
    assertTrue(refused.getMessage().contains("alice (3 files"), refused.getMessage());
    assertFalse(admin.exists(both), "a refused job leaves nothing");

    Path archive = admin.makeQualified(new Path(ARCHIVES, "job-alice.hpf"));
    List<Short> stagingModes = new java.util.ArrayList<>();
    JobDriver.Result result = JobDriver.run(jobs,
        List.of(admin.makeQualified(SHARED), admin.makeQualified(ALICE_HOME)), archive, false,
        WriterOptions.builder().settings(s -> s.threads(2).allowAccessLoss(true)).build(),
        job -> {
          try {
            for (FileStatus staged : admin.listStatus(new Path(archive, "_staging"))) {
              stagingModes.add(staged.getPermission().toShort());
            }
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    assertEquals(List.of((short) 0700), stagingModes, "the staged listing is the user's alone");
    assertEquals(4, result.files());
    assertEquals(0700, mode(archive), "no wider than alice's home allows");
    assertTrue(result.warnings().stream().anyMatch(w -> w.contains("access narrowed on")
        && w.contains("everyone could read " + admin.makeQualified(SHARED))),
        result.warnings().toString());
    assertThrows(AccessControlException.class, () -> readPart(BOB, archive));
  }
}
