package org.hpf.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.hpf.internal.io.LocalModes;

/**
 * The local file system, recording at every create, mkdirs, rename and change of mode what
 * another user could then reach below the watched directories: each file or directory with a
 * bit for group or others that no directory of mode {@code rwx------} (or narrower) between it
 * and the watched directory shuts off. Register it as {@code fs.file.impl}, with
 * {@code fs.file.impl.disable.cache}, for every local file a job or command writes through
 * Hadoop to be seen the moment it is created, not after it was narrowed.
 */
public final class ModeRecordingLocalFileSystem extends LocalFileSystem {
  private static final List<java.nio.file.Path> ROOTS = new CopyOnWriteArrayList<>();
  private static final Set<String> OPEN = ConcurrentHashMap.newKeySet();
  private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

  public ModeRecordingLocalFileSystem() {
    super(new InProcessChmodFileSystem.Raw());
  }

  /** Starts recording below {@code roots} (absolute); close to stop. */
  public static Recording watch(java.nio.file.Path... roots) {
    OPEN.clear();
    SEEN.clear();
    ROOTS.addAll(List.of(roots));
    return new Recording();
  }

  /** What was recorded since {@link #watch}. */
  public static final class Recording implements AutoCloseable {
    private Recording() {}

    /** Each path another user could reach, with the call and the mode it had then. */
    public List<String> open() {
      return OPEN.stream().sorted().toList();
    }

    /** Each path created or changed below the roots. */
    public List<String> seen() {
      return SEEN.stream().sorted().toList();
    }

    @Override
    public void close() {
      ROOTS.clear();
    }
  }

  /**
   * Every path below {@code root} that another user could reach now (see the class comment),
   * with its mode.
   */
  public static List<String> reachable(java.nio.file.Path root) throws IOException {
    List<String> open = new ArrayList<>();
    try (Stream<java.nio.file.Path> paths = Files.walk(root)) {
      for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) paths::iterator) {
        String mode = openMode(root, p);
        if (mode != null) {
          open.add(p + " " + mode);
        }
      }
    } catch (java.io.UncheckedIOException e) {
      // a file the job removed while it was walked
    }
    return open;
  }

  /**
   * The mode of {@code path} if it has bits for group or others and no directory from below
   * {@code root} to it (itself excluded) is shut to them; else null.
   */
  private static String openMode(java.nio.file.Path root, java.nio.file.Path path)
      throws IOException {
    if (path.equals(root)) {
      return null;
    }
    java.nio.file.Path at = root;
    for (java.nio.file.Path name : root.relativize(path)) {
      at = at.resolve(name);
      if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
      int mode = LocalModes.of(at);
      if ((mode & 077) == 0) {
        return null;
      }
      if (at.equals(path)) {
        return Integer.toOctalString(mode);
      }
    }
    return null;
  }

  private void record(String call, Path path) throws IOException {
    java.nio.file.Path file = pathToFile(path).toPath().toAbsolutePath();
    for (java.nio.file.Path root : ROOTS) {
      if (!file.startsWith(root) || file.equals(root)) {
        continue;
      }
      SEEN.add(file.toString());
      // The path and each directory a call may have made above it.
      for (java.nio.file.Path at = file; !at.equals(root); at = at.getParent()) {
        String mode = openMode(root, at);
        if (mode != null) {
          OPEN.add(at + " " + mode + " at " + call + " of " + file);
        }
      }
    }
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    FSDataOutputStream out = super.create(f, permission, overwrite, bufferSize, replication,
        blockSize, progress);
    record("create", f);
    return out;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    boolean made = super.mkdirs(f, permission);
    record("mkdirs", f);
    return made;
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    boolean renamed = super.rename(src, dst);
    record("rename", dst);
    return renamed;
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    super.setPermission(p, permission);
    record("setPermission", p);
  }
}
