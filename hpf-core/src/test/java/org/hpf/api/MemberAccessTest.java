package org.hpf.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveWriter;
import org.hpf.ExistingNames;
import org.hpf.HpfArchive;
import org.hpf.MemberAccess;
import org.hpf.MemberIterator;
import org.hpf.MemberStatus;
import org.hpf.WriteSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owners, groups and modes of members on the local file system: taken from source files (setuid
 * included where the file system allows it) or given through the writer, kept by appends,
 * deletes and compaction, and reported by stat, list and {@code hpf://}.
 */
class MemberAccessTest {
  private static final Configuration CONF = new Configuration();

  @TempDir java.nio.file.Path tmp;

  private Path archive(String name) {
    return new Path(tmp.resolve(name).toUri());
  }

  /** Writes a file with the given mode; false if the file system refused the mode. */
  private static boolean write(java.nio.file.Path file, String text, int mode)
      throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    try {
      Files.setAttribute(file, "unix:mode", mode);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
          PosixFilePermissions.toString(Set.copyOf(permissions(mode)))));
      return false;
    }
    return (((Integer) Files.getAttribute(file, "unix:mode")) & 07777) == mode;
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = new java.util.HashSet<>();
    for (PosixFilePermission bit : PosixFilePermission.values()) {
      if ((mode & (0400 >> bit.ordinal())) != 0) {
        set.add(bit);
      }
    }
    return set;
  }

  /** What the archive must record for a local file: its owner, group and the mode it has. */
  private static MemberAccess local(java.nio.file.Path file) throws IOException {
    PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class);
    int mode = ((Integer) Files.getAttribute(file, "unix:mode")) & 07777;
    return new MemberAccess(attributes.owner().getName(), attributes.group().getName(), mode);
  }

  /** Every member's access through stat, list and hpf:// (write bits cleared there). */
  private static void assertAccesses(Path archive, Map<String, MemberAccess> want)
      throws IOException {
    String root = archive.toUri().getPath().replaceAll("/$", "");
    assertAccesses(CONF, archive, "hpf://file-" + root, want);
  }

  /**
   * Every member's access through stat, list and {@code hpf://} ({@code hpfBase} the archive's
   * hpf:// path; write bits cleared there), on any file system.
   */
  static void assertAccesses(Configuration conf, Path archive, String hpfBase,
      Map<String, MemberAccess> want) throws IOException {
    Map<String, MemberAccess> listed = new TreeMap<>();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf);
        MemberIterator members = reader.list("")) {
      while (members.hasNext()) {
        MemberStatus member = members.next();
        listed.put(member.name(), member.access());
        MemberStatus stat = reader.stat(member.name());
        assertEquals(member.access(), stat.access(), member.name());
        assertEquals(stat.owner(), stat.access().owner());
        assertEquals(stat.mode() & 01777, stat.permission().toShort());
      }
    }
    assertEquals(new TreeMap<>(want), listed);
    String root = archive.toUri().getPath().replaceAll("/$", "");
    String base = hpfBase;
    // A new instance: a cached one may still hold the generation it saw a moment ago.
    try (FileSystem hpf = FileSystem.newInstance(new Path(base + "/").toUri(), conf)) {
      for (Map.Entry<String, MemberAccess> member : want.entrySet()) {
        FileStatus status = hpf.getFileStatus(new Path(base + "/" + member.getKey()));
        assertHpfStatus(member.getValue(), status);
      }
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files =
          hpf.listFiles(new Path(base + "/"), true);
      int seen = 0;
      while (files.hasNext()) {
        FileStatus status = files.next();
        String member = status.getPath().toUri().getPath().substring(root.length() + 1);
        assertTrue(want.containsKey(member), member + " of " + status.getPath());
        assertHpfStatus(want.get(member), status);
        seen++;
      }
      assertEquals(want.size(), seen);
    }
  }

  private static void assertHpfStatus(MemberAccess want, FileStatus status) {
    assertEquals(want.owner(), status.getOwner(), status.getPath().toString());
    assertEquals(want.group(), status.getGroup(), status.getPath().toString());
    assertEquals(new FsPermission((short) (want.mode() & 01555)), status.getPermission(),
        status.getPath().toString());
  }

  @Test
  void treesRecordTheirFilesAccessThroughAppendDeleteAndCompaction() throws IOException {
    java.nio.file.Path tree = tmp.resolve("tree");
    write(tree.resolve("bin/tool"), "tool", 0755);
    write(tree.resolve("secret"), "secret", 0600);
    write(tree.resolve("data/a.txt"), "a", 0644);
    boolean setuid = write(tree.resolve("bin/suid"), "suid", 04755);
    Map<String, MemberAccess> want = new TreeMap<>();
    for (String name : List.of("bin/tool", "secret", "data/a.txt", "bin/suid")) {
      want.put(name, local(tree.resolve(name)));
    }
    assertEquals(setuid ? 04755 : 0755, want.get("bin/suid").mode(), "setuid as the file has it");
    Path archive = archive("tree.hpf");
    try (ArchiveWriter writer = HpfArchive.create(archive, CONF)) {
      writer.addTree(List.of(new Path(tree.toUri())), ExistingNames.FAIL);
      writer.commit();
    }
    assertAccesses(archive, want);

    // An append adds the classes it meets and keeps the old members' own.
    java.nio.file.Path more = tmp.resolve("more");
    write(more.resolve("late.log"), "late", 0640);
    write(more.resolve("data/b.txt"), "b", 0644);
    want.put("late.log", local(more.resolve("late.log")));
    want.put("data/b.txt", local(more.resolve("data/b.txt")));
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, CONF)) {
      writer.addTree(List.of(new Path(more.toUri())), ExistingNames.FAIL);
      writer.commit();
      writer.delete("secret");
      writer.commit();
    }
    want.remove("secret");
    assertAccesses(archive, want);

    // A compaction rewrites every part and merges the names and layers: the classes stay.
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, CONF)) {
      writer.compact(1.0);
      writer.commit();
    }
    assertAccesses(archive, want);
  }

  /** The access widths of the archive's newest index files. */
  private Set<Integer> accessWidths(String archive) throws IOException {
    Set<Integer> widths = new TreeSet<>();
    try (Stream<java.nio.file.Path> files = Files.list(tmp.resolve(archive))) {
      for (java.nio.file.Path file : files.filter(f -> f.getFileName().toString()
          .startsWith("index-")).toList()) {
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(3, bytes[5], file + " is an index file of version 3");
        widths.add((int) bytes[24 + 15]); // AccessWidth, after the version 2 header fields
      }
    }
    return widths;
  }

  /**
   * Creates an archive of members of the given accesses. Their owners are not the archive's,
   * which would take their members from them: allowed here, where only the records count.
   */
  private void create(String name, int members, java.util.function.IntFunction<MemberAccess>
      access) throws IOException {
    WriteSettings allowLoss = WriteSettings.builder().allowAccessLoss(true).build();
    try (ArchiveWriter writer = HpfArchive.create(archive(name), CONF,
        org.hpf.ArchiveSettings.defaults(), allowLoss)) {
      for (int i = 0; i < members; i++) {
        byte[] bytes = ("member " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        writer.add("m/" + i, new ByteArrayInputStream(bytes), bytes.length, 1000L * i,
            access.apply(i));
      }
      writer.commit();
    }
  }

  @Test
  void theWriterRecordsGivenAccessesInTheNarrowestIndexWidth() throws IOException {
    MemberAccess alice = new MemberAccess("alice", "staff", 0640);
    MemberAccess bob = new MemberAccess("bob", "wheel", 01755);
    create("one.hpf", 40, i -> alice);
    create("two.hpf", 40, i -> i % 2 == 0 ? alice : bob);
    create("many.hpf", 300, i -> new MemberAccess("user-" + i, "group", 0600));
    assertEquals(Set.of(0), accessWidths("one.hpf"), "one class: no id per record");
    assertEquals(Set.of(1), accessWidths("two.hpf"), "two classes: a byte per record");
    assertTrue(accessWidths("many.hpf").contains(2), "ids above 255: two bytes per record");
    Map<String, MemberAccess> two = new TreeMap<>();
    Map<String, MemberAccess> many = new TreeMap<>();
    for (int i = 0; i < 300; i++) {
      if (i < 40) {
        two.put("m/" + i, i % 2 == 0 ? alice : bob);
      }
      many.put("m/" + i, new MemberAccess("user-" + i, "group", 0600));
    }
    assertAccesses(archive("two.hpf"), two);
    assertAccesses(archive("many.hpf"), many);
  }

  @Test
  void membersAddedWithoutAnAccessGetTheWritersDefault() throws IOException {
    try (ArchiveWriter writer = HpfArchive.create(archive("default.hpf"), CONF)) {
      writer.add("a", new byte[] {1});
      writer.commit();
    }
    MemberAccess given = new MemberAccess("svc", "etl", 0440);
    try (ArchiveWriter writer = HpfArchive.openWriter(archive("default.hpf"), CONF,
        WriteSettings.builder().defaultAccess(given).build())) {
      writer.add("b", new byte[] {2});
      writer.commit();
    }
    MemberAccess user = MemberAccess.defaultFor(CONF);
    assertEquals(0644 & ~(FsPermission.getUMask(CONF).toShort()), user.mode());
    assertEquals(org.apache.hadoop.security.UserGroupInformation.getCurrentUser()
        .getShortUserName(), user.owner());
    assertAccesses(archive("default.hpf"), Map.of("a", user, "b", given));
  }

  @Test
  void aMemberGivenAPrivateModeNarrowsTheArchiveBeforeItIsWritten() throws IOException {
    PosixFileAttributes dir = Files.readAttributes(tmp, PosixFileAttributes.class);
    String owner = dir.owner().getName();
    String group = dir.group().getName();
    Path archive = archive("narrowed.hpf");
    try (ArchiveWriter writer = HpfArchive.create(archive, CONF)) {
      writer.add("public.txt", new ByteArrayInputStream(new byte[] {1}), 1, 1_000L,
          new MemberAccess(owner, group, 0644));
      writer.commit();
    }
    java.nio.file.Path root = tmp.resolve("narrowed.hpf");
    assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"),
        Files.getPosixFilePermissions(root), "what the umask gave, for members all may read");
    try (ArchiveWriter writer = HpfArchive.openWriter(archive, CONF)) {
      writer.add("diary.txt", new ByteArrayInputStream(new byte[] {2}), 1, 2_000L,
          new MemberAccess(owner, group, 0600));
      writer.commit();
    }
    assertEquals(PosixFilePermissions.fromString("rwx------"),
        Files.getPosixFilePermissions(root), "only its owner may read a 0600 member");
  }
}
