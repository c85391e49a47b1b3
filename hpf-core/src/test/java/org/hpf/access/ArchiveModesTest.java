package org.hpf.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.MemberAccess;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.io.LocalUmask;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.MiniDfs;
import org.hpf.testing.ModeWatchingStorage;
import org.hpf.testing.OtherUser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file and directory of an archive gets no more access than the archive directory gives,
 * at every moment a writer is at work: the modes are read after every storage call and while
 * each file is first written, on the local file system and on HDFS, over a create of private
 * members, a create of public ones, an append that narrows the archive, a deletion and a
 * compaction.
 */
class ArchiveModesTest {
  private static final String USER = currentUser();

  @TempDir
  java.nio.file.Path tmp;

  @Test
  void localArchives() throws Exception {
    Configuration conf = new Configuration();
    FileSystem local = FileSystem.getLocal(conf);
    run(conf, local, new Path(tmp.toUri()), LocalUmask.get());
  }

  /**
   * Another user of the machine tries every file and directory of a private archive while its
   * parts are written, in a directory open to all: each attempt is refused.
   */
  @Test
  void anotherLocalUserReadsNothingWhileAPrivateArchiveIsWritten() throws Exception {
    // Another user exists only where the tests run as root, with runuser and nobody: no user is
    // added to the machine for a test.
    org.junit.jupiter.api.Assumptions.assumeTrue(OtherUser.available());
    java.nio.file.Files.setPosixFilePermissions(tmp,
        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Configuration conf = new Configuration();
    FileSystem local = FileSystem.getLocal(conf);
    Path archive = new Path(new Path(tmp.toUri()), "private.hpf");
    List<String> read = new ArrayList<>();
    List<String> tried = new ArrayList<>();
    ModeWatchingStorage watched = watching(conf, local, archive).probing((moment, paths) -> {
      if (moment.startsWith("writing part-")) {
        for (String path : paths) {
          tried.add(path);
          if (OtherUser.canRead(tmp.resolve("private.hpf").resolve(path))) {
            read.add(moment + ": " + path);
          }
        }
      }
    });
    try (ArchiveWriter writer = ArchiveWriter.create(conf, watched, WriterOptions.defaults())) {
      add(writer, "home/alice/key.pem", 0600);
      writer.commit();
    }
    assertTrue(tried.stream().anyMatch(p -> p.startsWith("part-")), tried::toString);
    assertEquals(List.of(), read);
  }

  @Test
  void hdfsArchives() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    FileSystem fs = dfs.fileSystem();
    Path dir = fs.makeQualified(new Path("/archive-modes"));
    fs.mkdirs(dir);
    run(dfs.configuration(), fs, dir,
        org.apache.hadoop.fs.permission.FsPermission.getUMask(dfs.configuration()).toShort());
  }

  private static void run(Configuration conf, FileSystem fs, Path dir, int umask)
      throws Exception {
    int openDirectory = 0777 & ~umask;
    int openFile = 0666 & ~umask;

    // Private members: the archive and all in it are the owner's from the first moment on.
    Path privateArchive = new Path(dir, "private.hpf");
    ModeWatchingStorage watched = watching(conf, fs, privateArchive);
    try (ArchiveWriter writer = ArchiveWriter.create(conf, watched, WriterOptions.defaults())) {
      add(writer, "home/alice/key.pem", 0600);
      writer.commit();
    }
    assertEquals(List.of(), watched.breaches());
    assertEquals(List.of(), watched.widerThanFinal());
    assertEquals(List.of(), modesWithOthersBits(watched.seen()), "private.hpf");

    // Public members: the archive widens at its commit, its files first.
    Path publicArchive = new Path(dir, "public.hpf");
    watched = watching(conf, fs, publicArchive);
    try (ArchiveWriter writer = ArchiveWriter.create(conf, watched, WriterOptions.defaults())) {
      for (int i = 0; i < 3; i++) {
        add(writer, "pub/readme-" + i + ".txt", 0644);
      }
      writer.commit();
    }
    assertEquals(List.of(), watched.breaches());
    assertEquals(List.of(), watched.widerThanFinal());
    Map<String, List<Integer>> seen = watched.seen();
    assertEquals(openDirectory, last(seen, ""), "the archive opened at its commit");
    assertEquals(openDirectory, last(seen, "_manifests"));
    for (var e : seen.entrySet()) {
      if (!e.getKey().isEmpty() && !e.getKey().startsWith("_manifests")
          && e.getKey().startsWith("part-")) {
        assertEquals(openFile, last(seen, e.getKey()), e.getKey());
      }
    }

    // An append of a private member narrows the archive and every file already in it.
    watched = watching(conf, fs, publicArchive);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, watched, WriterOptions.defaults())) {
      add(writer, "home/alice/key.pem", 0600);
      writer.commit();
    }
    assertEquals(List.of(), watched.breaches());
    assertEquals(List.of(), modesWithOthersBits(lastOnly(watched.seen())), "after the append");

    // A deletion and a compaction keep it so.
    watched = watching(conf, fs, publicArchive);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, watched, WriterOptions.defaults())) {
      writer.delete(List.of("pub/readme-0.txt", "pub/readme-1.txt"));
      writer.compact(1.0);
    }
    assertEquals(List.of(), watched.breaches());
    assertEquals(List.of(), watched.widerThanFinal());
    assertEquals(List.of(), modesWithOthersBits(watched.seen()), "delete and compact");
  }

  /**
   * A group's bits in a file are for the group the file has: when a first commit gives a new
   * archive its sources' group, every file in it gets that group before it gets the group's
   * bits, so that no member of the group the files were created with (the parent directory's,
   * on HDFS) reads one once the directory is opened to them.
   */
  @Test
  void filesCarryTheGroupOfTheArchive() throws Exception {
    MiniDfs dfs = MiniDfs.shared();
    FileSystem fs = dfs.fileSystem();
    Path dir = fs.makeQualified(new Path("/archive-groups-" + System.nanoTime()));
    fs.mkdirs(dir);
    fs.setOwner(dir, null, "everyone");
    Path archive = new Path(dir, "team.hpf");
    ModeWatchingStorage watched = watching(dfs.configuration(), fs, archive);
    try (ArchiveWriter writer = ArchiveWriter.create(dfs.configuration(), watched,
        WriterOptions.defaults())) {
      for (int i = 0; i < 3; i++) {
        add(writer, "team/plan-" + i + ".txt", new MemberAccess(USER, "team", 0640));
      }
      writer.commit();
    }
    assertEquals(List.of(), watched.breaches());
    org.apache.hadoop.fs.FileStatus root = fs.getFileStatus(archive);
    assertEquals("team", root.getGroup());
    assertEquals(0750, root.getPermission().toShort());
    List<String> otherGroup = new ArrayList<>();
    java.util.ArrayDeque<Path> dirs = new java.util.ArrayDeque<>(List.of(archive));
    while (!dirs.isEmpty()) {
      for (org.apache.hadoop.fs.FileStatus status : fs.listStatus(dirs.pop())) {
        if (status.isDirectory()) {
          dirs.push(status.getPath());
        }
        if ((status.getPermission().toShort() & 0070) != 0 && !status.getGroup().equals("team")) {
          otherGroup.add(status.getPath().getName() + " " + status.getGroup() + " "
              + status.getPermission());
        }
      }
    }
    assertEquals(List.of(), otherGroup);
  }

  private static ModeWatchingStorage watching(Configuration conf, FileSystem fs, Path archive) {
    ArchiveStorage storage = fs.getScheme().equals("hdfs")
        ? HdfsIntegration.storage(fs, archive) : new HadoopStorage(fs, archive, (short) 0);
    return new ModeWatchingStorage(storage, fs, archive);
  }

  private static void add(ArchiveWriter writer, String name, int mode) throws IOException {
    add(writer, name, new MemberAccess(USER, USER, mode));
  }

  private static void add(ArchiveWriter writer, String name, MemberAccess access)
      throws IOException {
    writer.add(name, new java.io.ByteArrayInputStream(name.getBytes(StandardCharsets.UTF_8)),
        name.length(), 1_000L, access);
  }

  private static int last(Map<String, List<Integer>> seen, String path) {
    List<Integer> modes = seen.get(path);
    return modes.get(modes.size() - 1);
  }

  private static Map<String, List<Integer>> lastOnly(Map<String, List<Integer>> seen) {
    Map<String, List<Integer>> last = new java.util.TreeMap<>();
    seen.forEach((path, modes) -> last.put(path, List.of(modes.get(modes.size() - 1))));
    return last;
  }

  /** Every path and mode seen with a bit for group or others. */
  private static List<String> modesWithOthersBits(Map<String, List<Integer>> seen) {
    List<String> open = new ArrayList<>();
    seen.forEach((path, modes) -> modes.stream().filter(m -> (m & 0077) != 0)
        .forEach(m -> open.add(path + " " + Integer.toOctalString(m))));
    return open;
  }

  private static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
