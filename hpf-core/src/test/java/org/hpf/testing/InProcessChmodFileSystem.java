package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system, setting permissions in this process. Without Hadoop's native library
 * the stock one runs {@code chmod} in a new process for every file and directory it creates: in
 * the crash and failure sweeps, which create thousands of small files, those processes took
 * most of the time. The tests' {@code core-site.xml} registers this class for {@code file:}.
 */
public final class InProcessChmodFileSystem extends LocalFileSystem {
  public InProcessChmodFileSystem() {
    super(new Raw());
  }

  /** The raw local file system with an in-process chmod: same permission bits, same files. */
  public static final class Raw extends RawLocalFileSystem {
    /** POSIX permissions by bit, from the lowest (others' execute). */
    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ};

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
      Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
      for (int bit = 0; bit < BITS.length; bit++) {
        if ((permission.toShort() & 1 << bit) != 0) {
          set.add(BITS[bit]);
        }
      }
      Files.setPosixFilePermissions(pathToFile(p).toPath(), set);
    }
  }
}
