package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.hpf.MemberAccess;
import org.hpf.internal.io.LocalModes;

/**
 * Where {@code hpf extract} writes members: files under a directory, each created with its
 * parent directories, filled, then given the member's owner and group (when they are restored),
 * its mode and, last, its modification time; a file whose member fails (a checksum) is removed.
 * Safe for many threads at once.
 *
 * <p>Born narrow, as tar restores modes: every file and directory is created with no bits for
 * group or others (a file with its recorded owner's bits alone, a directory {@code rwx------}),
 * so nobody else can open a member while its bytes are written, nor keep a descriptor opened
 * then. A file widens to its recorded mode only once its owner and group are set; the
 * directories widen to the umask's mode in {@link #finish}, after every file. Whatever fails on
 * the way leaves a file or directory narrower than asked, never wider.
 */
abstract class ExtractDestination {
  /** The owner's bits: all a file or directory gets until it is widened. */
  static final int OWNER_BITS = 0700;

  /** Parent directories made (or found) so far: each is made once. */
  private final Set<Path> made = ConcurrentHashMap.newKeySet();
  /** Directories this extraction created, narrow until {@link #finish}. */
  private final Set<Path> created = ConcurrentHashMap.newKeySet();
  final boolean overwrite;
  final RestoredModes modes;
  /** Null when the owners and groups are not restored. */
  final OwnerFailures ownerFailures;

  private ExtractDestination(boolean overwrite, RestoredModes modes, OwnerFailures owners) {
    this.overwrite = overwrite;
    this.modes = modes;
    this.ownerFailures = owners;
  }

  /**
   * The local file system through {@code java.nio}: Hadoop's local file system sets each new
   * file's and directory's permission by running {@code chmod} where Hadoop's native library is
   * missing, a process per file. Elsewhere Hadoop's {@code FileSystem}.
   *
   * @param preserve whether modes are restored exactly rather than less the umask
   * @param owners where files that could not get their owner and group are counted; null
   *     when owners and groups are not restored
   */
  static ExtractDestination of(FileSystem fs, boolean overwrite, boolean preserve,
      OwnerFailures owners) {
    return fs instanceof RawLocalFileSystem
        ? new Local(overwrite, new RestoredModes(preserve, LocalUser.umask()), owners)
        : new Hadoop(fs, overwrite,
            new RestoredModes(preserve, FsPermission.getUMask(fs.getConf()).toShort()), owners);
  }

  abstract boolean exists(Path target) throws IOException;

  /** Whether {@code path} is a directory (or a link to one). */
  abstract boolean isDirectory(Path path) throws IOException;

  /**
   * {@code dir} and the directories above it that do not exist, the topmost first; fails where
   * a file is in the way.
   */
  List<Path> missing(Path dir, String member) throws IOException {
    List<Path> missing = new ArrayList<>();
    Path p = dir;
    for (; p != null && !made.contains(p) && !exists(p); p = p.getParent()) {
      missing.add(0, p);
    }
    if (p != null && !made.contains(p) && !isDirectory(p)) {
      throw inTheWay(dir, member);
    }
    return missing;
  }

  /**
   * Writes {@code in} to {@code target} (the file of {@code member}), then gives it the recorded
   * owner, group and mode as far as they are restored, and its modification time. A member of
   * an archive that recorded none ({@code recorded} null) keeps what creating its file gave,
   * as before owners and modes were recorded: nothing is made up for it.
   */
  void write(String member, Path target, InputStream in, long mtimeMillis, MemberAccess recorded)
      throws IOException {
    Path parent = target.getParent();
    if (!made.contains(parent)) {
      created.addAll(mkdirs(parent, member));
      made.add(parent);
    }
    int mode = recorded == null ? 0666 & ~modes.umask() : modes.of(recorded.mode(), false);
    // outside the try: a file in the way stays
    OutputStream file = create(target, mode & OWNER_BITS);
    boolean done = false;
    try (OutputStream out = file) {
      in.transferTo(out);
      done = true;
    } finally {
      if (!done) {
        delete(target);
      }
    }
    if (recorded != null) {
      restoreAccess(target, recorded);
    } else {
      setMode(target, mode & OWNER_BITS, mode);
    }
    setTime(target, mtimeMillis);
  }

  /**
   * Widens the directories this extraction created to the umask's mode, once every file in
   * them has its own access. Not called after a failure: they stay their owner's alone.
   */
  void finish() throws IOException {
    int mode = 0777 & ~modes.umask();
    for (Path dir : created) {
      setMode(dir, OWNER_BITS, mode);
    }
  }

  /**
   * The owner before the mode: a change of owner clears setuid and setgid, and a file widens
   * only once it is its owner's.
   */
  private void restoreAccess(Path target, MemberAccess recorded) throws IOException {
    boolean ownerRestored = false;
    if (ownerFailures != null && !(recorded.owner().isEmpty() && recorded.group().isEmpty())) {
      String failure = setOwner(target, recorded.owner(), recorded.group());
      if (failure == null) {
        ownerRestored = true;
      } else {
        ownerFailures.add(target, recorded.owner(), recorded.group(), failure);
      }
    }
    int mode = modes.of(recorded.mode(), ownerRestored);
    setMode(target, modes.of(recorded.mode(), false) & OWNER_BITS, mode);
  }

  /**
   * Creates {@code dir} and the directories missing above it, each {@code rwx------}; returns
   * those it created.
   */
  abstract List<Path> mkdirs(Path dir, String member) throws IOException;

  /** Creates {@code target} with {@code mode} (never bits for group or others). */
  abstract OutputStream create(Path target, int mode) throws IOException;

  /** Gives the file its owner and group; returns why that failed, or null. */
  abstract String setOwner(Path target, String owner, String group);

  /** Gives {@code target}, created with {@code created}, its final {@code mode}. */
  abstract void setMode(Path target, int created, int mode) throws IOException;

  abstract void setTime(Path target, long mtimeMillis) throws IOException;

  abstract void delete(Path target) throws IOException;

  static org.apache.hadoop.fs.FileAlreadyExistsException inTheWay(Path dir, String member) {
    return new org.apache.hadoop.fs.FileAlreadyExistsException("cannot extract '" + member
        + "': a file is in the way of the directory " + dir);
  }

  static org.apache.hadoop.fs.FileAlreadyExistsException alreadyThere(Path target) {
    return new org.apache.hadoop.fs.FileAlreadyExistsException(target
        + " exists; use --force to overwrite it");
  }

  private static final class Local extends ExtractDestination {
    /** Whether files here have Unix owners and modes (not so on Windows). */
    private static final boolean UNIX =
        FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
    private static final UserPrincipalLookupService PRINCIPALS =
        FileSystems.getDefault().getUserPrincipalLookupService();

    /** User and group names looked up so far. */
    private final Map<String, Optional<UserPrincipal>> users = new ConcurrentHashMap<>();
    private final Map<String, Optional<UserPrincipal>> groups = new ConcurrentHashMap<>();

    Local(boolean overwrite, RestoredModes modes, OwnerFailures owners) {
      super(overwrite, modes, UNIX ? owners : null);
    }

    private static java.nio.file.Path local(Path path) {
      return Paths.get(path.toUri());
    }

    @Override
    boolean exists(Path target) {
      return Files.exists(local(target), LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    boolean isDirectory(Path path) {
      return Files.isDirectory(local(path));
    }

    @Override
    List<Path> mkdirs(Path dir, String member) throws IOException {
      try {
        List<Path> created = new ArrayList<>();
        for (Path missing : missing(dir, member)) {
          try {
            Files.createDirectory(local(missing), LocalModes.attribute(OWNER_BITS));
            created.add(missing);
          } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(local(missing))) {
              throw e;
            } // made by another thread meanwhile, which widens it
          }
        }
        return created;
      } catch (java.nio.file.FileSystemException e) {
        // A file where a directory should be: "exists" for the directory itself, "not a
        // directory" for one below it.
        for (java.nio.file.Path p = local(dir); p != null; p = p.getParent()) {
          if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)
              && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            throw inTheWay(dir, member);
          }
        }
        throw e;
      }
    }

    /**
     * A new file, never through a symbolic link. One in the way is replaced when overwriting,
     * as tar does: removed, then created anew, so that it gets the member's mode even if it
     * was read-only.
     */
    @Override
    OutputStream create(Path target, int mode) throws IOException {
      java.nio.file.Path file = local(target);
      try {
        return createNew(file, mode);
      } catch (FileAlreadyExistsException e) {
        if (!overwrite || Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
          throw alreadyThere(target);
        }
      }
      Files.deleteIfExists(file);
      try {
        return createNew(file, mode);
      } catch (FileAlreadyExistsException e) {
        throw alreadyThere(target); // created by someone else meanwhile
      }
    }

    /** A new file with {@code mode} from its first moment (open with O_CREAT and the mode). */
    private static OutputStream createNew(java.nio.file.Path file, int mode) throws IOException {
      Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      return Channels.newOutputStream(Files.newByteChannel(file, options,
          LocalModes.attribute(mode)));
    }


    @Override
    String setOwner(Path target, String owner, String group) {
      Optional<UserPrincipal> user = principal(users, owner, false);
      Optional<UserPrincipal> grp = principal(groups, group, true);
      if (user.isEmpty() || grp.isEmpty()) {
        return user.isEmpty() ? "no user " + owner + " here" : "no group " + group + " here";
      }
      try {
        PosixFileAttributeView view = Files.getFileAttributeView(local(target),
            PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        view.setOwner(user.get());
        view.setGroup((GroupPrincipal) grp.get());
        return null;
      } catch (IOException | SecurityException e) {
        return e.toString();
      }
    }

    /** A user or group by name, looked up once per name; empty if there is none here. */
    private static Optional<UserPrincipal> principal(Map<String, Optional<UserPrincipal>> known,
        String name, boolean group) {
      return known.computeIfAbsent(name, n -> {
        try {
          return Optional.of(group ? PRINCIPALS.lookupPrincipalByGroupName(n)
              : PRINCIPALS.lookupPrincipalByName(n));
        } catch (IOException e) {
          return Optional.empty();
        }
      });
    }

    @Override
    void setMode(Path target, int created, int mode) throws IOException {
      // "unix:mode" rather than POSIX permissions: only it sets setuid, setgid and sticky.
      if (UNIX && mode != (created & ~modes.umask())) {
        Files.setAttribute(local(target), "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
      }
    }

    @Override
    void setTime(Path target, long mtimeMillis) throws IOException {
      Files.setLastModifiedTime(local(target), FileTime.fromMillis(mtimeMillis));
    }

    @Override
    void delete(Path target) throws IOException {
      Files.deleteIfExists(local(target));
    }
  }

  /**
   * A Hadoop file system: the file is created with the member's mode, which the client's umask
   * limits, so only a mode the umask cut ({@code --preserve-permissions}) costs another call
   * to the NameNode. HDFS has no setuid or setgid: such bits are not restored there.
   */
  private static final class Hadoop extends ExtractDestination {
    private static final int HADOOP_MODE_BITS = 01777;
    private final FileSystem fs;
    private final int bufferSize;

    Hadoop(FileSystem fs, boolean overwrite, RestoredModes modes, OwnerFailures owners) {
      super(overwrite, modes, owners);
      this.fs = fs;
      this.bufferSize = fs.getConf().getInt("io.file.buffer.size", 4096);
    }

    @Override
    boolean exists(Path target) throws IOException {
      return fs.exists(target);
    }

    @Override
    boolean isDirectory(Path path) throws IOException {
      return fs.getFileStatus(path).isDirectory();
    }

    @Override
    List<Path> mkdirs(Path dir, String member) throws IOException {
      List<Path> missing = missing(dir, member);
      try {
        // HDFS gives the parents it makes the same mode (with the owner's write and execute).
        if (missing.isEmpty() || fs.mkdirs(dir, permission(OWNER_BITS))) {
          return missing;
        }
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException
          | ParentNotDirectoryException e) {
        // reported below
      }
      throw inTheWay(dir, member);
    }

    @Override
    OutputStream create(Path target, int mode) throws IOException {
      try {
        return fs.create(target, permission(mode), overwrite,
            bufferSize, fs.getDefaultReplication(target), fs.getDefaultBlockSize(target), null);
      } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
        throw alreadyThere(target);
      }
    }

    private static FsPermission permission(int mode) {
      return new FsPermission((short) (mode & HADOOP_MODE_BITS));
    }

    @Override
    String setOwner(Path target, String owner, String group) {
      try {
        fs.setOwner(target, owner, group);
        return null;
      } catch (IOException e) {
        return e.getMessage();
      }
    }

    @Override
    void setMode(Path target, int created, int mode) throws IOException {
      FsPermission wanted = permission(mode);
      if (!wanted.equals(permission(created & ~modes.umask()))) {
        fs.setPermission(target, wanted);
      }
    }

    @Override
    void setTime(Path target, long mtimeMillis) throws IOException {
      fs.setTimes(target, mtimeMillis, -1);
    }

    @Override
    void delete(Path target) throws IOException {
      try {
        fs.delete(target, false);
      } catch (FileNotFoundException e) {
        // nothing to remove
      }
    }
  }
}
