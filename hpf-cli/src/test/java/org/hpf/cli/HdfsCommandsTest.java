package org.hpf.cli;

import static org.hpf.cli.TestTrees.assertFails;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.hpf.testing.MiniDfs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands against a MiniDFSCluster, with hdfs:// paths and -fs. */
@org.junit.jupiter.api.Tag("hdfs")
class HdfsCommandsTest {
  private static MiniDfs dfs;
  private static String uri;

  @TempDir
  Path dir;

  @BeforeAll
  static void cluster() throws IOException {
    dfs = MiniDfs.shared();
    uri = dfs.cluster().getURI().toString();
  }

  /** The options of every run: the cluster's fast client settings (see MiniDfs). */
  private static String[] args(String command, String... rest) {
    List<String> all = new ArrayList<>(List.of(command,
        "-D", "dfs.client.block.write.locateFollowingBlock.initial.delay.ms=10",
        "-D", "dfs.client.block.write.locateFollowingBlock.retries=20"));
    all.addAll(List.of(rest));
    return all.toArray(new String[0]);
  }

  @Test
  @SuppressWarnings("unchecked")
  void lifecycleOnHdfs() throws Exception {
    TreeMap<String, byte[]> files = TestTrees.write(dir.resolve("src"), 60, 21);
    String archive = uri + "/cli/" + System.nanoTime() + "/logs.hpf";
    dfs.fileSystem().mkdirs(new org.apache.hadoop.fs.Path(archive).getParent());

    FSNamesystem namesystem = dfs.cluster().getNamesystem();
    long inodesBefore = namesystem.getFilesTotal();
    long blocksBefore = namesystem.getBlocksTotal();
    Cli.Result created = Cli.run(args("create", "--threads", "2", "--block-size", "1m",
        dir.resolve("src").toUri().toString(), archive));
    assertEquals(ExitCodes.OK, created.code(), created::toString);
    assertTrue(created.out().startsWith("created hdfs://"), created::toString);

    // info's count of the archive's NameNode objects is what the NameNode holds.
    Map<String, Object> info = TestTrees.info(args("info", "--json", archive));
    Map<String, Object> nn = (Map<String, Object>) info.get("nameNode");
    Map<String, Object> archived = (Map<String, Object>) nn.get("archive");
    assertEquals(namesystem.getFilesTotal() - inodesBefore,
        ((Number) archived.get("inodes")).longValue(), nn::toString);
    long blocks = ((Number) archived.get("blocks")).longValue();
    // The blocks of the deleted lock and journal leave the NameNode's count asynchronously.
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (namesystem.getBlocksTotal() - blocksBefore != blocks && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(namesystem.getBlocksTotal() - blocksBefore, blocks, nn::toString);
    assertEquals(60, info.get("files"));
    assertEquals(1 << 20, ((Number) info.get("blockSize")).intValue());

    // -fs and a plain path name the same archive.
    String plainPath = new org.apache.hadoop.fs.Path(archive).toUri().getPath();
    Cli.Result ls = Cli.run(args("ls", "-fs", uri, plainPath));
    assertEquals(new ArrayList<>(files.keySet()), ls.out().lines().toList(), ls::toString);

    TestTrees.write(dir.resolve("more"), Map.of("new/x.txt",
        "x".getBytes(StandardCharsets.UTF_8)));
    Cli.Result appended = Cli.run(args("append", archive,
        dir.resolve("more").toUri().toString()));
    assertEquals(ExitCodes.OK, appended.code(), appended::toString);
    List<String> names = new ArrayList<>(files.keySet());
    Cli.Result removed = Cli.run(args("rm", archive, names.get(0), names.get(1)));
    assertEquals(ExitCodes.OK, removed.code(), removed::toString);
    Cli.Result compacted = Cli.run(args("compact", "--min-live", "1", archive));
    assertEquals(ExitCodes.OK, compacted.code(), compacted::toString);

    Cli.Result cat = Cli.run(args("cat", archive, "new/x.txt", names.get(2)));
    byte[] expected = ("x" + new String(files.get(names.get(2)), StandardCharsets.ISO_8859_1))
        .getBytes(StandardCharsets.ISO_8859_1);
    assertArrayEquals(expected, cat.stdout());

    Path out = dir.resolve("out");
    Cli.Result extracted = Cli.run(args("extract", archive, out.toString()));
    assertEquals(ExitCodes.OK, extracted.code(), extracted::toString);
    TreeMap<String, byte[]> now = new TreeMap<>(files);
    now.remove(names.get(0));
    now.remove(names.get(1));
    now.put("new/x.txt", "x".getBytes(StandardCharsets.UTF_8));
    ExtractCommandTest.assertTreeEquals(now, out);

    Cli.Result verified = Cli.run(args("verify", archive));
    assertEquals(ExitCodes.OK, verified.code(), verified::toString);
    assertTrue(verified.out().contains(": 59 files, "), verified::toString);
  }

  /**
   * Extracting to HDFS gives files their modes (the umask cut only without -p) and, for the
   * superuser (who started this cluster), their owners and groups.
   */
  @Test
  void extractRestoresModesAndOwnersOnHdfs() throws Exception {
    Map<String, String> modes = Map.of("bin/run.sh", "rwxr-x---", "key.pem", "rw-------",
        "shared.txt", "rw-rw-r--", "sticky", "rwxr-xr-t");
    for (var e : modes.entrySet()) {
      TestTrees.write(dir.resolve("src"), Map.of(e.getKey(), e.getKey().getBytes(
          StandardCharsets.UTF_8)));
      Files.setPosixFilePermissions(dir.resolve("src").resolve(e.getKey()),
          PosixFilePermissions.fromString(e.getValue().replace('t', 'x')));
    }
    Path sticky = dir.resolve("src/sticky");
    Files.setAttribute(sticky, "unix:mode", (Integer) Files.getAttribute(sticky, "unix:mode")
        | 01000);
    String archive = TestTrees.create(dir.resolve("src"), dir.resolve("modes.hpf"));
    String base = uri + "/cli/" + System.nanoTime();
    FileSystem fs = dfs.fileSystem();

    assertEquals(ExitCodes.OK, Cli.run(args("extract", archive, base + "/exact")).code());
    assertEquals(ExitCodes.OK, Cli.run(args("extract", "--no-preserve-permissions",
        archive, base + "/masked")).code());
    for (var e : modes.entrySet()) {
      FileStatus exact = fs.getFileStatus(new org.apache.hadoop.fs.Path(base + "/exact/"
          + e.getKey()));
      PosixFileAttributes source = Files.readAttributes(dir.resolve("src").resolve(e.getKey()),
          PosixFileAttributes.class);
      assertEquals(e.getValue(), exact.getPermission().toString(), e.getKey());
      assertEquals(source.owner().getName(), exact.getOwner(), e.getKey());
      assertEquals(source.group().getName(), exact.getGroup(), e.getKey());
      assertEquals(TestTrees.MTIME, exact.getModificationTime(), e.getKey());
      FileStatus masked = fs.getFileStatus(new org.apache.hadoop.fs.Path(base + "/masked/"
          + e.getKey()));
      assertEquals(e.getValue().replace("rw-rw-r--", "rw-r--r--").replace('t', 'x'),
          masked.getPermission().toString(), e.getKey());
    }
  }

  @Test
  void errorsOnHdfs() throws Exception {
    TestTrees.write(dir.resolve("src"), 5, 1);
    String archive = uri + "/cli/" + System.nanoTime() + "/e.hpf";
    assertFails(Cli.run(args("ls", archive)), ExitCodes.NOT_FOUND, "archive does not exist");
    assertEquals(ExitCodes.OK, Cli.run(args("create", "-q", dir.resolve("src").toUri()
        .toString(), archive)).code());
    assertFails(Cli.run(args("get", archive, "missing")), ExitCodes.NOT_FOUND,
        "'missing' is not in archive");
    // A lock held by a live writer elsewhere (here: a file this test keeps open, so its lease
    // is renewed; a closed or expired one would be taken over).
    try (var lock = dfs.fileSystem().create(new org.apache.hadoop.fs.Path(archive, "_lock"))) {
      lock.write("create by bob@node-9 (pid 77) since 2026-01-01T00:00:00Z\n"
          .getBytes(StandardCharsets.UTF_8));
      lock.hflush();
      assertFails(Cli.run(args("rm", archive, "d1/f1.bin")), ExitCodes.LOCKED,
          "is locked by create by bob@node-9 (pid 77)");
    }
    Cli.Result recovered = Cli.run(args("recover", "--break-lock", archive));
    assertEquals(ExitCodes.OK, recovered.code(), recovered::toString);
    assertEquals(ExitCodes.OK, Cli.run(args("rm", "-q", archive, "d1/f1.bin")).code());
  }

  @Test
  void archivingAnotherUsersPrivateFilesIsRefusedWithExitCode9() throws Exception {
    org.apache.hadoop.hdfs.DistributedFileSystem fs = dfs.fileSystem();
    String base = "/cli-access/" + System.nanoTime();
    org.apache.hadoop.fs.Path home = new org.apache.hadoop.fs.Path(base + "/alice");
    writeHdfs(fs, new org.apache.hadoop.fs.Path(home, "diary.txt"), "alice's");
    fs.setOwner(new org.apache.hadoop.fs.Path(home, "diary.txt"), "alice", "alice");
    fs.setOwner(home, "alice", "alice");
    fs.setPermission(home, new FsPermission((short) 0700));
    org.apache.hadoop.fs.Path bobs = new org.apache.hadoop.fs.Path(base + "/bob");
    writeHdfs(fs, new org.apache.hadoop.fs.Path(bobs, "plans.txt"), "bob's");
    fs.setOwner(new org.apache.hadoop.fs.Path(bobs, "plans.txt"), "bob", "bob");
    fs.setOwner(bobs, "bob", "bob");
    fs.setPermission(bobs, new FsPermission((short) 0700));
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(uri + base + "/a.hpf");

    // The superuser running the tests would make an archive only it may read.
    Cli.Result refused = Cli.run(args("create", uri + home, archive.toString()));
    assertEquals(ExitCodes.ACCESS_LOSS, refused.code(), refused::toString);
    assertTrue(refused.stderr().contains("would take their own files from alice (1 file, e.g. "),
        refused::toString);
    assertTrue(refused.stderr().contains("pass --allow-access-loss"), refused::toString);
    assertTrue(!refused.stderr().contains("WriteSettings"), "the command line names its flag: "
        + refused);
    assertTrue(!fs.exists(archive), "a refused create writes nothing");

    // Two owners: the refusal points to the split that keeps both their access.
    Cli.Result both = Cli.run(args("create", uri + home, uri + bobs, archive.toString()));
    assertEquals(ExitCodes.ACCESS_LOSS, both.code(), both::toString);
    assertTrue(both.stderr().contains("hpf create --split-by-owner makes them in one run"),
        both::toString);
    assertEquals(1, both.stderr().lines().count(), both::toString);

    Cli.Result allowed = Cli.run(args("create", "--allow-access-loss", uri + home, uri + bobs,
        archive.toString()));
    assertEquals(ExitCodes.OK, allowed.code(), allowed::toString);
    assertEquals(0700, fs.getFileStatus(archive).getPermission().toShort());
    // The warning names each owner who lost access, with how many of their files.
    assertTrue(allowed.stderr().contains("hpf: warning: access taken, as allowed, on "),
        allowed::toString);
    assertTrue(allowed.stderr().contains(": alice (1 file, e.g. ") && allowed.stderr()
        .contains(", bob (1 file, e.g. "), allowed::toString);
  }

  /**
   * A part file this user may not read is no damage: verify says so once, naming the file, and
   * exits 1; not 4 with a problem line (and a server stack trace) for every member in it.
   */
  @Test
  void verifyOfAPartThisUserMayNotReadSaysPermissionDenied() throws Exception {
    org.apache.hadoop.hdfs.DistributedFileSystem fs = dfs.fileSystem();
    TestTrees.write(dir.resolve("src"), 40, 3);
    String archive = uri + "/cli-verify/" + System.nanoTime() + "/a.hpf";
    assertEquals(ExitCodes.OK, Cli.run(args("create", "--threads", "2",
        dir.resolve("src").toUri().toString(), archive)).code());
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(archive);
    fs.setPermission(root.getParent(), new FsPermission((short) 0755));
    fs.setPermission(root.getParent().getParent(), new FsPermission((short) 0755));
    // Everyone may read it, but one part.
    fs.setPermission(root, new FsPermission((short) 0755));
    org.apache.hadoop.fs.Path part = null;
    for (FileStatus file : fs.listStatus(root)) {
      fs.setPermission(file.getPath(), new FsPermission((short) (file.isDirectory() ? 0755
          : 0644)));
      if (file.getPath().getName().startsWith("part-")) {
        part = file.getPath();
      }
    }
    for (FileStatus file : fs.listStatus(new org.apache.hadoop.fs.Path(root, "_manifests"))) {
      fs.setPermission(file.getPath(), new FsPermission((short) 0644));
    }
    fs.setPermission(part, new FsPermission((short) 0));

    Cli.Result verify = org.apache.hadoop.security.UserGroupInformation.createRemoteUser("bob")
        .doAs((java.security.PrivilegedExceptionAction<Cli.Result>) () ->
            Cli.run(args("verify", archive)));
    assertEquals(ExitCodes.ERROR, verify.code(), verify::toString);
    assertEquals(1, verify.stderr().lines().count(), verify::toString);
    assertTrue(verify.stderr().startsWith("hpf: " + archive + ": Permission denied: user=bob"),
        verify::toString);
    assertTrue(verify.stderr().contains(part.toUri().getPath()), verify::toString);
    assertTrue(!verify.out().contains("problem"), verify::toString);
  }

  /** A plain file given as the archive is "not an hpf archive" (exit 3), as a directory is. */
  @Test
  void aPlainFileIsNotAnArchive() throws Exception {
    org.apache.hadoop.hdfs.DistributedFileSystem fs = dfs.fileSystem();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/cli-file/"
        + System.nanoTime() + "/readme.txt");
    writeHdfs(fs, file, "no archive");
    for (String command : List.of("ls", "info", "verify")) {
      Cli.Result r = Cli.run(args(command, uri + file));
      assertEquals(ExitCodes.NOT_FOUND, r.code(), r::toString);
      assertEquals("hpf: " + uri + file + " is not an hpf archive: it is a file, not a"
          + " directory", r.stderr().strip(), r::toString);
    }
    Cli.Result get = Cli.run(args("get", uri + file, "a.txt"));
    assertEquals(ExitCodes.NOT_FOUND, get.code(), get::toString);
    assertTrue(get.stderr().contains("is not an hpf archive"), get::toString);
  }

  private static void writeHdfs(org.apache.hadoop.fs.FileSystem fs,
      org.apache.hadoop.fs.Path file, String text) throws IOException {
    try (var out = fs.create(file)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
