package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.ArchiveReader;
import org.hpf.HpfArchive;
import org.hpf.testing.AsUser;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An administrator archives three users' homes with {@code hpf create --split-by-owner} on a
 * MiniDFSCluster with permissions on: each of alice, bob and carol reads their own members,
 * through the API and {@code hpf://}, and is refused the others', also reading their part files
 * directly; {@code hpf ls} shows no one the names they could not list before.
 */
@Tag("hdfs")
class OwnerSplitTest {
  private static final List<String> USERS = List.of("alice", "bob", "carol");
  private static final Map<String, UserGroupInformation> LOGINS = Map.of(
      "alice", UserGroupInformation.createUserForTesting("alice", new String[] {"alice"}),
      "bob", UserGroupInformation.createUserForTesting("bob", new String[] {"bob"}),
      "carol", UserGroupInformation.createUserForTesting("carol", new String[] {"carol"}));

  private static DistributedFileSystem admin;
  private static Configuration conf;

  @BeforeAll
  static void cluster() throws IOException {
    MiniDfs dfs = MiniDfs.shared();
    admin = dfs.fileSystem();
    conf = dfs.configuration();
  }

  /** Homes of mode 0700 under {@code base}/user, each user's notes in theirs (mode 0644). */
  private static Path homes(Path base) throws Exception {
    Path homes = new Path(base, "user");
    for (String user : USERS) {
      Path home = new Path(homes, user);
      admin.mkdirs(home);
      admin.setOwner(home, user, user);
      admin.setPermission(home, new FsPermission((short) 0700));
      as(user, fs -> {
        for (int i = 0; i < 4; i++) {
          write(fs, new Path(home, "notes/note-" + i + ".txt"), text(user, i));
        }
        return null;
      });
    }
    return admin.makeQualified(homes);
  }

  private static String text(String user, int i) {
    return user + "'s note " + i;
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    AsUser.write(fs, file, text);
  }

  /** Runs {@code action} as {@code user}, with a file system of their own. */
  private static <T> T as(String user, AsUser.Action<T> action) throws Exception {
    return AsUser.run(LOGINS.get(user), admin.getUri(), conf, action);
  }

  private static Cli.Result hpfAs(String user, String... args) throws Exception {
    return LOGINS.get(user).doAs((PrivilegedExceptionAction<Cli.Result>) () -> Cli.run(args));
  }

  /** The {@code hpf://} path of a member of an archive on the cluster. */
  private static Path hpf(Path archive, String member) {
    return new Path("hpf://hdfs-" + archive.toUri().getAuthority() + archive.toUri().getPath()
        + "/" + member);
  }

  private static byte[] getThroughApi(String user, Path archive, String name) throws Exception {
    return as(user, fs -> {
      try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
        return reader.get(name);
      }
    });
  }

  private static byte[] getThroughHpf(String user, Path archive, String name) throws Exception {
    return LOGINS.get(user).doAs((PrivilegedExceptionAction<byte[]>) () -> {
      Path member = hpf(archive, name);
      try (FileSystem hpf = FileSystem.newInstance(member.toUri(), conf);
          InputStream in = hpf.open(member)) {
        return in.readAllBytes();
      }
    });
  }

  private static void readParts(String user, Path archive) throws Exception {
    List<Path> parts = new ArrayList<>();
    for (FileStatus file : admin.listStatus(archive)) {
      if (file.getPath().getName().startsWith("part-")) {
        parts.add(file.getPath());
      }
    }
    assertFalse(parts.isEmpty(), "no part file in " + archive);
    as(user, fs -> {
      for (Path part : parts) {
        try (InputStream in = fs.open(part)) {
          in.read(new byte[64]);
        }
      }
      return null;
    });
  }

  @Test
  void eachOwnerReadsTheirOwnMembersAndNobodyElses() throws Exception {
    Path base = admin.makeQualified(new Path("/split-" + System.nanoTime()));
    Path homes = homes(base);
    Path archives = new Path(base, "archives");

    Cli.Result split = Cli.run("create", "--split-by-owner", "--threads", "2", homes.toString(),
        archives.toString());
    assertEquals(ExitCodes.OK, split.code(), split::toString);
    assertTrue(split.out().startsWith("3 owners: 3 archives in " + archives), split::toString);

    for (String owner : USERS) {
      Path archive = new Path(archives, owner + ".hpf");
      FileStatus root = admin.getFileStatus(archive);
      assertEquals(owner, root.getOwner(), "the archive is its owner's");
      assertEquals(0700, root.getPermission().toShort(), "no wider than a 0700 home allows");
      RemoteIterator<LocatedFileStatus> files = admin.listFiles(archive, true);
      while (files.hasNext()) {
        LocatedFileStatus file = files.next();
        assertEquals(owner, file.getOwner(), file.getPath() + " is its owner's too");
      }
      for (String reader : USERS) {
        String name = owner + "/notes/note-2.txt";
        if (reader.equals(owner)) {
          byte[] expected = text(owner, 2).getBytes(StandardCharsets.UTF_8);
          assertArrayEquals(expected, getThroughApi(reader, archive, name));
          assertArrayEquals(expected, getThroughHpf(reader, archive, name));
          readParts(reader, archive);
          Cli.Result ls = hpfAs(reader, "ls", archive.toString());
          assertEquals(ExitCodes.OK, ls.code(), ls::toString);
          assertEquals(List.of(0, 1, 2, 3).stream().map(i -> owner + "/notes/note-" + i + ".txt")
              .toList(), ls.out().lines().toList(), ls::toString);
        } else {
          assertThrows(AccessControlException.class,
              () -> getThroughApi(reader, archive, name), reader + " on " + owner);
          assertThrows(AccessControlException.class,
              () -> getThroughHpf(reader, archive, name), reader + " on " + owner);
          assertThrows(AccessControlException.class, () -> readParts(reader, archive));
          // They could not list the owner's home before, and do not see its names now.
          assertThrows(AccessControlException.class, () -> as(reader,
              fs -> fs.listStatus(new Path(homes, owner))));
          Cli.Result ls = hpfAs(reader, "ls", archive.toString());
          assertEquals(ExitCodes.ERROR, ls.code(), ls::toString);
          assertEquals("", ls.out(), ls::toString);
          assertFalse(ls.stderr().contains("note-"), ls::toString);
          assertTrue(ls.stderr().contains("Permission denied"), ls::toString);
        }
      }
    }
  }

  @Test
  void deletingTheSourcesKeepsWhatOthersCouldReadAndNothingIsLost() throws Exception {
    Path base = admin.makeQualified(new Path("/split-" + System.nanoTime()));
    Path homes = homes(base);
    Path pub = new Path(base, "pub");
    admin.mkdirs(pub);
    admin.setOwner(pub, "carol", "carol");
    as("carol", fs -> {
      write(fs, new Path(pub, "readme.txt"), "for everyone");
      return null;
    });
    Path archives = new Path(base, "archives");

    Cli.Result split = Cli.run("create", "--split-by-owner", "--mapreduce", "--delete-sources",
        "--threads", "2", homes.toString(), pub.toString(), archives.toString());
    // carol's archive is hers alone, so the readme everyone could read stays where it was.
    assertEquals(ExitCodes.ERROR, split.code(), split::toString);
    assertTrue(split.stderr().contains("access narrowed on " + new Path(archives, "carol.hpf")),
        split::toString);
    assertTrue(split.stderr().contains("readme.txt: readable by everyone, and the archive only"
        + " by user carol"), split::toString);
    assertTrue(admin.exists(new Path(pub, "readme.txt")));
    for (String owner : USERS) {
      assertFalse(admin.exists(new Path(homes, owner + "/notes/note-0.txt")),
          owner + "'s notes are in their archive only");
      for (int i = 0; i < 4; i++) {
        assertArrayEquals(text(owner, i).getBytes(StandardCharsets.UTF_8), getThroughApi(owner,
            new Path(archives, owner + ".hpf"), owner + "/notes/note-" + i + ".txt"));
      }
    }
    assertArrayEquals("for everyone".getBytes(StandardCharsets.UTF_8),
        getThroughApi("carol", new Path(archives, "carol.hpf"), "readme.txt"));
  }

  /**
   * The superuser's split pins each owner's archive in a cache pool of that owner's, of mode
   * 0700: another user lists none of its directives (which name its index files, generation and
   * sizes), and the owner's own append and rm re-pin it without a warning or a stack trace,
   * leaving no directive of a file the archive no longer uses. A pool an administrator made for
   * a user, as SECURITY.md says, is the one that user's own create pins into.
   */
  @Test
  void ownersManageThePinningOfTheirOwnArchives() throws Exception {
    Path base = admin.makeQualified(new Path("/split-" + System.nanoTime()));
    Path homes = homes(base);
    Path archives = new Path(base, "archives");
    Cli.Result split = Cli.run("create", "--split-by-owner", homes.toString(),
        archives.toString());
    assertEquals(ExitCodes.OK, split.code(), split::toString);
    assertTrue(split.out().contains(" in pool hpf-alice, "), split::toString);
    Path alices = new Path(archives, "alice.hpf");

    CachePoolInfo pool = poolNamed("hpf-alice");
    assertEquals("alice", pool.getOwnerName(), pool::toString);
    assertEquals(0700, pool.getMode().toShort(), pool::toString);
    assertPinnedExactly(alices);
    assertEquals(List.of(), directivesSeenBy("bob", alices));

    Path late = new Path(homes, "alice/late");
    as("alice", fs -> {
      write(fs, new Path(late, "c.txt"), "alice's late note");
      return null;
    });
    Cli.Result appended = hpfAs("alice", "append", alices.toString(), late.toString());
    assertEquals(ExitCodes.OK, appended.code(), appended::toString);
    assertEquals("", appended.stderr(), appended::toString);
    assertTrue(appended.out().contains(" in pool hpf-alice, "), appended::toString);
    assertPinnedExactly(alices);

    Cli.Result removed = hpfAs("alice", "rm", "-q", alices.toString(), "alice/notes/note-0.txt");
    assertEquals(ExitCodes.OK, removed.code(), removed::toString);
    assertEquals("", removed.stderr() + removed.out(), removed::toString);
    assertPinnedExactly(alices);
    assertEquals(List.of(), directivesSeenBy("bob", alices));
    assertEquals(List.of(), directivesSeenBy("carol", alices));

    // Set up as an administrator would: a pool of dora's own, which her create pins into.
    String dora = "dora-" + System.nanoTime();
    UserGroupInformation doraLogin = UserGroupInformation.createUserForTesting(dora,
        new String[] {dora});
    admin.addCachePool(new CachePoolInfo("hpf-" + dora).setOwnerName(dora)
        .setMode(new FsPermission((short) 0700)));
    Path home = new Path(base, dora);
    admin.mkdirs(home);
    admin.setOwner(home, dora, dora);
    AsUser.run(doraLogin, admin.getUri(), conf, fs -> {
      write(fs, new Path(home, "in/d.txt"), "dora's");
      return null;
    });
    Path doras = new Path(home, "own.hpf");
    Cli.Result created = doraLogin.doAs((PrivilegedExceptionAction<Cli.Result>) () -> Cli.run(
        "create", new Path(home, "in").toString(), doras.toString()));
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    assertEquals("", created.stderr(), created::toString);
    assertTrue(created.out().contains(" in pool hpf-" + dora + ", "), created::toString);
    assertPinnedExactly(doras);
    assertEquals(List.of(), directivesSeenBy("alice", doras));
  }

  private static CachePoolInfo poolNamed(String name) throws IOException {
    RemoteIterator<CachePoolEntry> pools = admin.listCachePools();
    while (pools.hasNext()) {
      CachePoolInfo info = pools.next().getInfo();
      if (info.getPoolName().equals(name)) {
        return info;
      }
    }
    throw new AssertionError("no cache pool " + name);
  }

  /** The paths inside {@code archive} of every directive {@code user} (null: superuser) lists. */
  private static List<String> directivesSeenBy(String user, Path archive) throws Exception {
    String inside = archive.toUri().getPath() + "/";
    AsUser.Action<List<String>> list = fs -> {
      List<String> paths = new ArrayList<>();
      RemoteIterator<CacheDirectiveEntry> it = ((DistributedFileSystem) fs)
          .listCacheDirectives(null);
      while (it.hasNext()) {
        String path = it.next().getInfo().getPath().toUri().getPath();
        if (path.startsWith(inside)) {
          paths.add(path);
        }
      }
      paths.sort(null);
      return paths;
    };
    return user == null ? list.run(admin) : as(user, list);
  }

  /**
   * The archive's directives, in every pool, are exactly one for each file its newest generation
   * reads at a lookup (its manifest and index files, as {@code hpf cache --status} counts them),
   * each of them a file that is there: nothing stale, nothing missing.
   */
  private static void assertPinnedExactly(Path archive) throws Exception {
    Map<String, Object> status = TestTrees.info(new String[] {"cache", "--status", "--json",
        archive.toString()});
    assertEquals(0, ((Number) status.get("staleDirectives")).intValue(), status::toString);
    assertEquals(status.get("filesWanted"), status.get("directives"), status::toString);
    List<String> pinned = directivesSeenBy(null, archive);
    assertEquals(((Number) status.get("directives")).intValue(), pinned.size(),
        () -> pinned + " against " + status);
    for (String path : pinned) {
      assertTrue(admin.exists(new Path(path)), path + " is pinned and gone");
    }
  }

  @Test
  void onlyTheSuperuserGivesArchivesToOtherOwners() throws Exception {
    Path base = admin.makeQualified(new Path("/split-" + System.nanoTime()));
    Path shared = new Path(base, "shared");
    admin.mkdirs(shared);
    admin.setPermission(base, new FsPermission((short) 0777));
    admin.setPermission(shared, new FsPermission((short) 0777));
    as("carol", fs -> {
      write(fs, new Path(shared, "carol.txt"), "carol's");
      return null;
    });
    as("bob", fs -> {
      write(fs, new Path(shared, "bob.txt"), "bob's");
      return null;
    });
    Path archives = new Path(base, "archives");
    Cli.Result refused = hpfAs("alice", "create", "--split-by-owner", shared.toString(),
        archives.toString());
    assertEquals(ExitCodes.ERROR, refused.code(), refused::toString);
    assertTrue(refused.stderr().startsWith("hpf: the sources hold files of bob, carol, and only"
        + " the superuser of "), refused::toString);
    assertFalse(admin.exists(archives), "nothing was written");
  }
}
