package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;
import org.hpf.testing.OtherUser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extracted files and directories are born with no bits for group or others: the modes of the
 * file being written and of every directory above it, seen while its bytes are written, and of
 * the directories until the extraction finishes.
 */
class ExtractBornNarrowTest {
  private static final String USER = System.getProperty("user.name");
  private static FileSystem local;

  @TempDir
  java.nio.file.Path dir;

  @BeforeAll
  static void localFileSystem() throws IOException {
    // The modes watched are POSIX permission bits; a file system without them has none to leak.
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    local = FileSystem.getLocal(new Configuration()).getRawFileSystem();
  }

  @Test
  void filesAndDirectoriesAreTheirOwnersWhileWrittenThenWidened() throws IOException {
    // Only hpf's modes keep others out: the directory above is open to all.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (boolean preserve : new boolean[] {false, true}) {
      java.nio.file.Path dest = dir.resolve(preserve ? "preserved" : "umasked");
      ExtractDestination files = ExtractDestination.of(local, false, preserve,
          new OwnerFailures());
      Map<String, Map<String, String>> seen = new TreeMap<>();
      String group = Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class)
          .group().getName();
      for (var member : Map.of("public/readme.txt", 0644, "home/alice/key.pem", 0600,
          "home/alice/notes/a.txt", 0640, "bin/tool", 0755).entrySet()) {
        java.nio.file.Path target = dest.resolve(member.getKey());
        files.write(member.getKey(), new Path(target.toUri()),
            watching(dest, target, seen.computeIfAbsent(member.getKey(), k -> new TreeMap<>())),
            1_000L, new MemberAccess(USER, group, member.getValue()));
        assertEquals(member.getValue(), mode(target), member.getKey() + " widened to its mode");
      }
      seen.forEach((member, modes) -> modes.forEach((path, mode) ->
          assertTrue(mode.endsWith("------"), path + " was " + mode + " while " + member
              + " was written")));
      assertEquals(4, seen.size());
      assertTrue(seen.get("home/alice/notes/a.txt").containsKey(dest.toString()),
          "the destination itself was watched");
      List<String> wide = new ArrayList<>();
      try (var walk = Files.walk(dest)) {
        walk.filter(Files::isDirectory).forEach(d -> {
          if ((mode(d) & 077) != 0) {
            wide.add(d + " " + Integer.toOctalString(mode(d)));
          }
        });
      }
      assertEquals(List.of(), wide, "directories stay narrow until the extraction finishes");
      files.finish();
      assertEquals(0755 & ~LocalUser.umask(), mode(dest.resolve("home/alice/notes")));
      assertEquals(0755 & ~LocalUser.umask(), mode(dest));
    }
  }

  /**
   * The member's bytes, which note, when first read (the file is open for writing then), the
   * modes of {@code target} and of every directory from {@code dest} down to it.
   */
  private static InputStream watching(java.nio.file.Path dest, java.nio.file.Path target,
      Map<String, String> seen) {
    return new ByteArrayInputStream("some bytes".getBytes()) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        if (seen.isEmpty()) {
          for (java.nio.file.Path p = target; p.startsWith(dest); p = p.getParent()) {
            seen.put(p.toString(), permissions(p));
            if (OtherUser.available() && OtherUser.canRead(p)) {
              seen.put(p + ", read by nobody", "rwxrwxrwx");
            }
          }
        }
        return super.read(b, off, len);
      }

      @Override
      public long transferTo(java.io.OutputStream out) throws IOException {
        byte[] buffer = new byte[4];
        long n = 0;
        for (int r; (r = read(buffer, 0, buffer.length)) > 0; n += r) {
          out.write(buffer, 0, r);
        }
        return n;
      }
    };
  }

  private static String permissions(java.nio.file.Path p) {
    try {
      return PosixFilePermissions.toString(Files.getPosixFilePermissions(p,
          LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int mode(java.nio.file.Path p) {
    int mode = 0;
    try {
      for (PosixFilePermission bit : Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)) {
        mode |= 0400 >> bit.ordinal();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return mode;
  }
}
