package org.hpf.crash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.MemberAccess;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.SourceCollector;

/** Sources and storage on the local file system, shared by the crash and failure tests. */
final class ArchiveFixtures {
  static final Configuration CONF = new Configuration();

  private ArchiveFixtures() {}

  /** The modes the fixtures' files get in turn: several access classes per archive. */
  private static final String[] MODES = {"rw-r--r--", "rw-------", "rwxr-x---", "rw-rw-r--"};

  /**
   * Writes {@code count} files named {@code prefix/f<i>} below {@code root} (a third random, the
   * rest one repeated byte; modes in turn from {@link #MODES}), records them in
   * {@code expected} and returns them as sources.
   */
  static List<Source> sources(Path root, String prefix, int count, long seed,
      Map<String, byte[]> expected) throws IOException {
    Random random = new Random(seed);
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[random.nextInt(6000)];
      if (i % 3 == 0) {
        random.nextBytes(bytes);
      } else {
        java.util.Arrays.fill(bytes, (byte) ('a' + i % 26));
      }
      String name = prefix + "/f" + i;
      Path file = root.resolve(name);
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(MODES[i % 4]));
      expected.put(name, bytes);
    }
    return SourceCollector.collect(CONF, List.of(hadoopPath(root)));
  }

  /** The owner, group and mode of a local file, as the JDK reports them. */
  static MemberAccess localAccess(Path file) throws IOException {
    PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class);
    int mode = 0;
    for (PosixFilePermission bit : attributes.permissions()) {
      mode |= 0400 >> bit.ordinal();
    }
    return new MemberAccess(attributes.owner().getName(), attributes.group().getName(), mode);
  }

  /** The access {@code reader} reports for member {@code name}. */
  static MemberAccess recordedAccess(HpfReader reader, String name) throws IOException {
    return reader.manifest().access(reader.stat(name).access(), reader.location());
  }

  static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  static HadoopStorage storage(Path dir) throws IOException {
    return new HadoopStorage(FileSystem.getLocal(CONF), hadoopPath(dir), (short) 1);
  }
}
