package org.hpf.internal.io;

import com.google.common.base.Supplier;
import com.google.common.base.Throwables;
import com.google.common.base.Suppliers;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem.HdfsDataOutputStreamBuilder;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.util.functional.FutureIO;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.hdfs.HdfsLeases;

/**
 * {@link ArchiveStorage} on any Hadoop {@link FileSystem}.
 *
 * <p>Every file and directory it creates inside the archive gets no more than the archive
 * directory allows: the group's bits only where the directory gives its group read or write,
 * the others' only where it gives them to others, so that opening the directory alone (a
 * {@code chmod 755}) opens none of the files of a narrowed archive. A new archive's directory is
 * created {@code rwx------}; {@link #setRootAccess} narrows the files inside after the directory
 * and widens them before it, so no file is ever readable by more than the archive.
 */
public final class HadoopStorage implements ArchiveStorage {
  /** The owner's bits of a directory: a new archive's, and its files' bound before it widens. */
  private static final int OWNER_ONLY = 0700;

  private final FileSystem fs;
  private final Path root;
  /** The root as text, made once: every get passes it along for its messages. */
  private final String location;
  /** Asked of the file system when a file is first created: a reader never needs it. */
  private final Supplier<Short> replication;
  /**
   * {@link StorageProfile#readOnlyObjectStore}: asking the store a file's length costs a
   * request (a HEAD), so files are opened at the length the archive records, with the random
   * read policy a reader's positioned reads want.
   */
  private final Supplier<Boolean> objectStore;
  /**
   * On an object store, the files the last {@link #list} found, by name: the statuses a LIST
   * returns carry length and ETag, so the file a reader opens next (the newest manifest) needs
   * no HEAD. Files of an archive never change once written; a listing replaces the last.
   */
  private volatile Map<String, FileStatus> lastListed = Map.of();

  /**
   * The archive directory's permission bits, which bound those of every file made in it; read
   * when first needed, kept up to date by {@link #setRootAccess}.
   */
  private volatile Integer rootMode;

  /** How the storage commits: as a writer was told, else as the store declares. */
  private final Supplier<StorageProfile> profile;

  /**
   * @param replication replication of new files, or 0 for the file system's default
   */
  public HadoopStorage(FileSystem fs, Path root, short replication) {
    this(fs, root, replication, null);
  }

  /**
   * @param replication replication of new files, or 0 for the file system's default
   * @param profile how a writer commits here (from {@link StorageProfile#of}, with the writer's
   *     configuration), or null to probe the store when first asked
   */
  public HadoopStorage(FileSystem fs, Path root, short replication, StorageProfile profile) {
    // hpf checksums every file itself: the local file system's .crc side files add nothing.
    this.fs = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    this.root = fs.makeQualified(root);
    this.location = this.root.toString();
    // On HDFS the default is a NameNode call (getServerDefaults), which a reader does not need.
    this.replication = replication > 0 ? () -> replication
        : Suppliers.memoize(() -> this.fs.getDefaultReplication(this.root));
    this.objectStore = Suppliers.memoize(() -> probeObjectStore(this.fs, this.root));
    this.profile = profile != null ? () -> profile : Suppliers.memoize(() -> {
      try {
        return StorageProfile.of(this.fs, this.root, this.fs.getConf());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public StorageProfile profile() throws IOException {
    try {
      return profile.get();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private boolean conditionalCreate() throws IOException {
    return profile() == StorageProfile.CONDITIONAL_CREATE;
  }

  private static boolean probeObjectStore(FileSystem fs, Path root) {
    try {
      return StorageProfile.readOnlyObjectStore(fs, root, fs.getConf());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replication of new files. */
  public short replication() {
    return replication.get();
  }

  public FileSystem fileSystem() {
    return fs;
  }

  public Path root() {
    return root;
  }

  public Path path(String name) {
    return new Path(root, name);
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists(String name) throws IOException {
    return fs.exists(path(name));
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    Path path = path(name);
    if (conditionalCreate()) {
      // If-None-Match: the store refuses the object at close where one exists; nothing is
      // checked before (a check would be a request, and racy).
      return new PublishedAtClose(path, (FSDataOutputStream) fs.createFile(path)
          .must(StorageProfile.CONDITIONAL_CREATE_CAPABILITY, true)
          .build());
    }
    long block = blockSize > 0 ? blockSize : fs.getDefaultBlockSize(path);
    int buffer = fs.getConf().getInt("io.file.buffer.size", 4096);
    FsPermission permission = filePermission();
    if (fs instanceof RawLocalFileSystem local) {
      // Hadoop's local create checks, then opens: two processes could both "create" the lock.
      // Creating the file with O_EXCL first makes the check and the create one step, and gives
      // it its mode from the start.
      createExclusively(local.pathToFile(path).toPath(), path, permission, directoryPermission(),
          mayCreateParents(path));
      // Overwrites the empty file just made, ours; Hadoop sets the mode again, the same one.
      return new HadoopOutput(fs.create(path, permission, true, Math.max(buffer, 64 * 1024),
          replication(), block, null), fs);
    }
    if (fs instanceof DistributedFileSystem dfs) {
      var builder = syncingEveryBlock(dfs, path, replication(), block).permission(permission);
      if (mayCreateParents(path)) {
        builder.recursive();
      }
      return new HadoopOutput(builder.build(), fs);
    }
    // overwrite=false: creating a file that exists fails (FileAlreadyExistsException).
    return new HadoopOutput(fs.create(path, permission, false, Math.max(buffer, 64 * 1024),
        replication(), block, null), fs);
  }

  /**
   * A builder of a new HDFS file (failing if it exists) whose every block the DataNodes sync to
   * disk as they finalize it (CreateFlag.SYNC_BLOCK). Without it a DataNode syncs a finished
   * block only where {@code dfs.datanode.synconclose} is set, and {@code hsync} syncs only the
   * block being written: the earlier blocks of a file that spans several could be lost to a
   * power failure after hpf had called them durable. It creates no missing parent directory
   * ({@code recursive()} does).
   */
  public static HdfsDataOutputStreamBuilder syncingEveryBlock(DistributedFileSystem dfs,
      Path path, short replication, long blockSize) {
    int buffer = dfs.getConf().getInt("io.file.buffer.size", 4096);
    return dfs.createFile(path).overwrite(false).replication(replication)
        .blockSize(blockSize > 0 ? blockSize : dfs.getDefaultBlockSize(path))
        .bufferSize(Math.max(buffer, 64 * 1024)).syncBlock();
  }

  /** The manifests' directory: {@code Manifest.DIR}, of the format above this layer. */
  private static final String MANIFESTS = "_manifests";

  /**
   * True where creating the file {@code path} may create its missing parent directories: below
   * the archive's work directories, but never the archive directory itself or
   * {@code _manifests/}. A recovery may have removed those under a writer it fenced off, whose
   * next file must then fail rather than bring them back without a manifest.
   */
  private boolean mayCreateParents(Path path) {
    // By their paths alone: a root made from a URI keeps a trailing slash no parent has.
    String parent = path.getParent().toUri().getPath();
    return !parent.equals(withoutTrailingSlash(root.toUri().getPath()))
        && !parent.equals(path(MANIFESTS).toUri().getPath());
  }

  private static String withoutTrailingSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static void createExclusively(java.nio.file.Path file, Path path,
      FsPermission permission, FsPermission directories, boolean mayCreateParents)
      throws IOException {
    if (!Files.isDirectory(file.getParent())) {
      if (!mayCreateParents) {
        throw new FileNotFoundException(path + ": its directory " + path.getParent()
            + " does not exist");
      }
      Files.createDirectories(file.getParent(), LocalModes.attribute(directories.toShort()));
    }
    try {
      Files.createFile(file, LocalModes.attribute(permission.toShort()));
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(path + " already exists");
    }
  }

  /**
   * The permission of a new file of the archive: the file system's default less its umask, with
   * the group's and the others' read and write bits only where the archive directory gives
   * them. An object store ignores it: its modes are made up by its client.
   */
  public FsPermission filePermission() throws IOException {
    return new FsPermission((short) (0666 & ~umask() & (0600 | archiveMode() & 0066)));
  }

  /** The permission of a new directory inside the archive, bounded as a file's. */
  public FsPermission directoryPermission() throws IOException {
    return new FsPermission((short) (0777 & ~umask() & (OWNER_ONLY | archiveMode() & 0077)));
  }

  private int umask() {
    return fs instanceof RawLocalFileSystem ? LocalUmask.get()
        : FsPermission.getUMask(fs.getConf()).toShort();
  }

  /** The archive directory's mode; {@code rwx------} while it does not exist. */
  private int archiveMode() throws IOException {
    Integer mode = rootMode;
    if (mode == null) {
      RootAccess access;
      try {
        access = rootAccess();
      } catch (FileNotFoundException e) {
        return OWNER_ONLY; // it will be created narrow
      }
      mode = access == null ? 0777 : access.mode();
      rootMode = mode;
    }
    return mode;
  }

  @Override
  public ArchiveInput open(String name) throws IOException {
    return open(name, -1);
  }

  @Override
  public ArchiveInput open(String name, long knownLength) throws IOException {
    if (objectStore.get()) {
      return openOnObjectStore(name, knownLength);
    }
    Path path = path(name);
    FSDataInputStream in = fs.open(path);
    long length;
    try {
      length = fs.getFileStatus(path).getLen();
    } catch (IOException e) {
      in.close();
      throw e;
    }
    return new HadoopInput(name, in, length, () -> fs.open(path));
  }

  /**
   * Opens an object without asking the store for its length where the last listing or the
   * archive ({@code knownLength}) tells it, else with the one HEAD that does. S3A's classic
   * stream then sends no HEAD; its default (analytics) stream sends one unless the status
   * carries the object's ETag, as a listed one does.
   */
  private ArchiveInput openOnObjectStore(String name, long knownLength) throws IOException {
    Path path = path(name);
    FileStatus status = lastListed.get(name);
    boolean asRecorded = status == null && knownLength >= 0;
    if (status == null) {
      status = asRecorded
          ? new FileStatus(knownLength, false, 1, defaultBlockSize(), 0, path)
          : fs.getFileStatus(path);
    }
    FileStatus opened = status;
    HadoopInput.Reopener opener = () -> FutureIO.awaitFuture(fs.openFile(path)
        .withFileStatus(opened)
        .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_LENGTH, opened.getLen())
        .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY,
            Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_RANDOM)
        .build());
    return new HadoopInput(name, opener.open(), status.getLen(), opener, asRecorded);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    Path path = dir.isEmpty() ? root : path(dir);
    List<String> names = new ArrayList<>();
    Map<String, FileStatus> files = objectStore.get() ? new HashMap<>() : null;
    try {
      for (FileStatus status : fs.listStatus(path)) {
        names.add(status.getPath().getName());
        if (files != null && status.isFile()) {
          files.put(dir.isEmpty() ? status.getPath().getName()
              : dir + "/" + status.getPath().getName(), status);
        }
      }
    } catch (FileNotFoundException e) {
      return names;
    }
    if (files != null) {
      lastListed = files;
    }
    return names;
  }

  @Override
  public void rename(String from, String to) throws IOException {
    if (profile() != StorageProfile.RENAME) {
      // A rename here copies then deletes: never part of a commit.
      throw new IOException("no atomic rename on the store at " + location + ": will not "
          + "rename " + from + " to " + to);
    }
    Path target = path(to);
    if (fs instanceof RawLocalFileSystem local) {
      renameNoReplace(local.pathToFile(path(from)).toPath(), local.pathToFile(target).toPath(),
          target);
      return;
    }
    if (fs.exists(target)) {
      throw new FileAlreadyExistsException("rename target exists: " + target);
    }
    if (!fs.rename(path(from), target)) {
      throw new IOException("could not rename " + path(from) + " to " + target);
    }
  }

  /**
   * A POSIX rename replaces its target, so a local check-then-rename could replace a manifest
   * another process committed in between: a hard link fails atomically if the target exists.
   */
  private static void renameNoReplace(java.nio.file.Path from, java.nio.file.Path to,
      Path target) throws IOException {
    try {
      Files.createLink(to, from);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException("rename target exists: " + target);
    } catch (UnsupportedOperationException e) {
      // No hard links on this file system: a plain move, which checks first.
      Files.move(from, to);
      return;
    }
    Files.delete(from);
  }

  @Override
  public void delete(String name) throws IOException {
    fs.delete(path(name), false);
  }

  @Override
  public void deleteDirectory(String dir) throws IOException {
    if (dir.isEmpty()) {
      throw new IllegalArgumentException("not a directory inside the archive: ''");
    }
    fs.delete(path(dir), true);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    Path path = dir.isEmpty() ? root : path(dir);
    if (fs instanceof RawLocalFileSystem local) {
      // In one step with its mode: Hadoop's local mkdirs creates, then sets the mode.
      Files.createDirectories(local.pathToFile(path).toPath(),
          LocalModes.attribute(directoryPermission().toShort()));
      return;
    }
    if (!fs.mkdirs(path, directoryPermission())) {
      throw new IOException("could not create directory " + path);
    }
  }

  @Override
  public RootAccess createPrivateRoot(String dir) throws IOException {
    if (profile() != StorageProfile.RENAME) {
      return ArchiveStorage.super.createPrivateRoot(dir);
    }
    boolean existed = fs.exists(root);
    if (!existed) {
      Path parent = root.getParent();
      if (parent != null && !fs.mkdirs(parent)) { // outside the archive: as the user's
        throw new IOException("could not create directory " + parent);
      }
      rootMode = OWNER_ONLY;
    }
    mkdirs(dir);
    RootAccess now = rootAccess();
    if (existed) {
      // An empty directory given as the archive: what it has is what the file system gave.
      setRootAccess(now.without(AccessPlan.GROUP_BITS | AccessPlan.OTHER_BITS));
      return now;
    }
    RootAccess given = new RootAccess(now.owner(), now.group(), 0777 & ~umask());
    return given;
  }

  @Override
  public org.hpf.internal.hdfs.HdfsReport afterCommit(org.hpf.internal.format.Manifest manifest) {
    String reason = fs instanceof DistributedFileSystem
        ? "the storage is a plain HadoopStorage on HDFS (HdfsIntegration.storage makes one that"
            + " uses HDFS features)"
        : "the archive is on " + fs.getUri().getScheme() + "://, not on HDFS";
    return org.hpf.internal.hdfs.HdfsReport.skipped(reason);
  }

  @Override
  public org.apache.hadoop.fs.BlockLocation[] blockLocations(ArchiveInput file, long offset,
      long length) throws IOException {
    return fs.getFileBlockLocations(path(file.name()), offset, length);
  }

  @Override
  public boolean writerIsGone(String name) throws IOException {
    return fs instanceof DistributedFileSystem dfs && HdfsLeases.holderIsGone(dfs, path(name));
  }

  @Override
  public void recoverLease(String name) throws IOException {
    if (fs instanceof DistributedFileSystem dfs) {
      HdfsLeases.recover(dfs, path(name));
    }
  }

  @Override
  public boolean rootExists() throws IOException {
    return fs.exists(root);
  }

  @Override
  public boolean rootIsFile() throws IOException {
    try {
      return fs.getFileStatus(root).isFile();
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public long defaultBlockSize() {
    return fs.getDefaultBlockSize(root);
  }

  @Override
  public RootAccess rootAccess() throws IOException {
    if (profile() != StorageProfile.RENAME) {
      // An object store's owner and mode are made up by its client: who reads is the
      // bucket's policy, which hpf neither reads nor changes.
      return null;
    }
    FileStatus status = fs.getFileStatus(root);
    org.hpf.MemberAccess access = FileAccess.of(rawFileSystem(), status);
    return access == null ? null
        : new RootAccess(access.owner(), access.group(), access.mode());
  }

  @Override
  public RootAccess setRootAccess(RootAccess access) throws IOException {
    RootAccess applied = access;
    RootAccess current = rootAccess();
    if (!access.group().equals(current.group())) {
      try {
        fs.setOwner(root, null, access.group());
      } catch (org.apache.hadoop.security.AccessControlException e) {
        // Not a member of the group: nobody of it reads rather than the wrong group.
        applied = new RootAccess(current.owner(), current.group(),
            access.mode() & ~AccessPlan.GROUP_BITS);
      }
    }
    if (applied.mode() != current.mode()) {
      boolean widens = (applied.mode() & ~current.mode()) != 0;
      if (widens) {
        // Widened last: its files first, so none is reachable before it has its mode.
        boundFiles(applied.mode(), applied.group());
      }
      fs.setPermission(root, new FsPermission((short) applied.mode()));
      rootMode = applied.mode();
      if (!widens) {
        boundFiles(applied.mode(), applied.group());
      }
    }
    if (fs.getFileStatus(root).hasAcl()) {
      // Entries a parent's default ACL gave the directory would let named users in past its
      // mode; without them, its mode alone says who reaches the files inside.
      fs.removeAcl(root);
    }
    return applied;
  }

  /**
   * Gives every file and directory inside the archive the bits the archive directory's
   * {@code mode} allows (see {@link #filePermission}): their owner's bits stay, the group's
   * and the others' become what a file created now would get. The group's bits are for the
   * directory's {@code group}: a file of another group (the one it was created with, before the
   * directory got its sources' group) is given that group first, or gets no group bits where the
   * writer may not give it.
   */
  private void boundFiles(int mode, String group) throws IOException {
    int saved = archiveMode();
    rootMode = mode;
    try {
      int file = filePermission().toShort() & 0077;
      int directory = directoryPermission().toShort() & 0077;
      bound(root, file, directory, group);
    } finally {
      rootMode = saved;
    }
  }

  private void bound(Path dir, int file, int directory, String group) throws IOException {
    if (fs instanceof RawLocalFileSystem local && LocalModes.POSIX) {
      // In this process: Hadoop's local statuses and chmod run a process per file without
      // its native library.
      try (var paths = Files.walk(local.pathToFile(dir).toPath()).skip(1)) {
        for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) paths::iterator) {
          int others = Files.isDirectory(p) ? directory : file;
          if ((others & 0070) != 0 && !LocalModes.giveGroup(p, group, LocalModes.of(p))) {
            others &= ~0070;
          }
          int now = LocalModes.of(p); // giving the group may have taken the group's bits
          int wanted = now & ~0077 | others;
          if (wanted != now) {
            LocalModes.set(p, wanted);
          }
        }
      }
      return;
    }
    for (FileStatus status : fs.listStatus(dir)) {
      int others = status.isDirectory() ? directory : file;
      int now = status.getPermission().toShort();
      if ((others & 0070) != 0 && !status.getGroup().equals(group)) {
        if (giveGroup(status.getPath(), group, now)) {
          now &= ~0070;
        } else {
          others &= ~0070;
        }
      }
      int wanted = now & ~0077 | others;
      if (wanted != now) {
        fs.setPermission(status.getPath(), new FsPermission((short) wanted));
      }
      if (status.isDirectory()) {
        bound(status.getPath(), file, directory, group);
      }
    }
  }

  /**
   * Gives {@code path} the archive's {@code group}, its group's bits taken away first so that
   * the group it had never holds them; false where the writer may not give that group.
   */
  private boolean giveGroup(Path path, String group, int mode) throws IOException {
    if ((mode & 0070) != 0) {
      fs.setPermission(path, new FsPermission((short) (mode & ~0070)));
    }
    try {
      fs.setOwner(path, null, group);
      return true;
    } catch (org.apache.hadoop.security.AccessControlException e) {
      return false;
    }
  }

  /** The file system beneath checksum wrappers, whose statuses name owners cheaply. */
  private FileSystem rawFileSystem() {
    return fs instanceof LocalFileSystem local ? local.getRaw() : fs;
  }

  @Override
  public boolean rootExistsNonEmpty() throws IOException {
    try {
      FileStatus status = fs.getFileStatus(root);
      return !status.isDirectory() || fs.listStatus(root).length > 0;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public int abortPendingUploads() throws IOException {
    if (profile() == StorageProfile.RENAME) {
      return 0;
    }
    try (org.apache.hadoop.fs.MultipartUploader uploader =
        fs.createMultipartUploader(root).build()) {
      return FutureIO.awaitFuture(uploader.abortUploadsUnderPath(root));
    } catch (UnsupportedOperationException e) {
      return 0; // a store without multipart uploads
    }
  }

  @Override
  public void deleteRoot() throws IOException {
    fs.delete(root, true);
  }

  @Override
  public void deleteEmptyDirectories(String dir) throws IOException {
    for (Path path : List.of(path(dir), root)) {
      try {
        // Not recursive: a directory that holds anything stays, with all it holds.
        fs.delete(path, false);
      } catch (org.apache.hadoop.fs.PathIsNotEmptyDirectoryException e) {
        return;
      } catch (IOException e) {
        // The local file system says "Directory ... is not empty" as a plain IOException.
        if (holdsAnything(path)) {
          return;
        }
        throw e;
      }
    }
  }

  private boolean holdsAnything(Path dir) throws IOException {
    try {
      return fs.listStatusIterator(dir).hasNext();
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public void close() {
    // The FileSystem is shared (Hadoop caches instances); its owner closes it.
  }

  /** An archive file being written through a Hadoop output stream (also HDFS's). */
  public static final class HadoopOutput implements ArchiveOutput {
    private final FSDataOutputStream out;
    /** The file system that created it, to delete it by identity; null where not needed. */
    private final FileSystem fs;
    private final OutputStream stream;
    /**
     * The failures this output threw, by identity. After a pipeline failure HDFS's stream throws
     * its one stored exception again from every later call: closing the stream after a failed
     * write (a try-with-resources, a clean-up) would add that exception to itself as suppressed,
     * which throws {@code IllegalArgumentException: Self-suppression not permitted} and hides
     * both. A repeat is thrown as a new exception caused by the first.
     */
    private final Set<Throwable> thrown = Collections.newSetFromMap(new IdentityHashMap<>());

    public HadoopOutput(FSDataOutputStream out) {
      this(out, null);
    }

    public HadoopOutput(FSDataOutputStream out, FileSystem fs) {
      this.out = out;
      this.fs = fs;
      this.stream = new ExplainingOutputStream(out, this::fresh, this::close);
    }

    /** {@code e}, or a new exception caused by it where this output threw it before. */
    private IOException fresh(IOException e) {
      synchronized (thrown) {
        if (thrown.add(e)) {
          return e;
        }
      }
      return new IOException(e.getMessage() + " (again)", e);
    }

    @Override
    public OutputStream stream() {
      return stream;
    }

    @Override
    public void flush() throws IOException {
      try {
        out.hflush();
      } catch (IOException e) {
        throw fresh(e);
      }
    }

    @Override
    public void sync() throws IOException {
      // No SyncFlag: the block being written is synced, the earlier ones were as they filled
      // (SYNC_BLOCK). UPDATE_LENGTH adds nothing here (lease recovery takes the length from the
      // DataNodes), and END_BLOCK would cut a short block at every sync.
      try {
        out.hsync();
      } catch (IOException e) {
        throw fresh(e);
      }
    }

    @Override
    public boolean confirmWriter() throws IOException {
      if (!(out instanceof HdfsDataOutputStream hdfs)) {
        return false;
      }
      // With UPDATE_LENGTH the sync is a NameNode call that checks this client's lease on the
      // file's inode: it fails once the lease was recovered or the file deleted.
      hdfs.hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH));
      return true;
    }

    @Override
    public boolean deleteByIdentity() throws IOException {
      if (!(out instanceof HdfsDataOutputStream hdfs && fs instanceof DistributedFileSystem dfs
          && hdfs.getWrappedStream() instanceof DFSOutputStream stream)) {
        return false;
      }
      // HDFS never reuses an inode id: this path names this file or nothing.
      try {
        dfs.delete(new Path("/.reserved/.inodes/" + stream.getFileId()), false);
      } catch (FileNotFoundException e) {
        // deleted already
      }
      return true;
    }

    @Override
    public void close() throws IOException {
      try {
        out.close();
      } catch (IOException e) {
        throw fresh(e);
      }
    }
  }

  /**
   * An open archive file read with positioned reads, bounded by its length. Many threads share
   * one: a thread interrupted in a read (a cancelled task) fails that read alone. Where the
   * interrupt closed the stream (the local file system reads through a channel, which an
   * interrupt closes), the next read opens the file again.
   */
  public static class HadoopInput implements ArchiveInput {
    /** Opens the file again. */
    @FunctionalInterface
    public interface Reopener {
      FSDataInputStream open() throws IOException;
    }

    private final String name;
    private volatile FSDataInputStream in;
    private final long length;
    /** Null: the stream is not opened again (a closed stream fails the reads that follow). */
    private final Reopener reopener;
    /** See {@link #lengthAsRecorded}. */
    private final boolean lengthAsRecorded;
    private volatile boolean closed;

    public HadoopInput(String name, FSDataInputStream in, long length) {
      this(name, in, length, null);
    }

    public HadoopInput(String name, FSDataInputStream in, long length, Reopener reopener) {
      this(name, in, length, reopener, false);
    }

    /**
     * @param lengthAsRecorded {@code length} is the one the archive records, not the store's
     */
    public HadoopInput(String name, FSDataInputStream in, long length, Reopener reopener,
        boolean lengthAsRecorded) {
      this.name = name;
      this.in = in;
      this.length = length;
      this.reopener = reopener;
      this.lengthAsRecorded = lengthAsRecorded;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public boolean lengthAsRecorded() {
      return lengthAsRecorded;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int len) throws IOException {
      if (position < 0 || position + len > length) {
        throw new EOFException(name + ": read of " + len + " bytes at " + position
            + " passes the end of the file (" + length + " bytes)");
      }
      FSDataInputStream current = in;
      try {
        current.readFully(position, buffer, offset, len);
      } catch (IOException | FSError e) {
        Throwable cause = e instanceof FSError ? e.getCause() : e;
        if (cause instanceof ClosedByInterruptException) {
          InterruptedIOException interrupted =
              new InterruptedIOException(name + ": read interrupted");
          interrupted.initCause(cause);
          throw interrupted;
        }
        if (!(cause instanceof ClosedChannelException) || reopener == null || closed) {
          throw e;
        }
        reopen(current).readFully(position, buffer, offset, len);
      }
    }

    /** True where the stream reads many ranges natively (not one synchronous read each). */
    @Override
    public boolean readsVectored() {
      return in.hasCapability(StreamCapabilities.VECTOREDIO);
    }

    /**
     * Hadoop's vectored read of the ranges (where the stream has no native one, Hadoop reads
     * them one after another).
     */
    @Override
    public void readRanges(List<ReadRange> ranges) throws IOException {
      List<FileRange> wanted = new ArrayList<>(ranges.size());
      for (ReadRange range : ranges) {
        if (range.position() < 0 || range.position() + range.buffer().length > length) {
          throw new EOFException(name + ": read of " + range.buffer().length + " bytes at "
              + range.position() + " passes the end of the file (" + length + " bytes)");
        }
        wanted.add(FileRange.createFileRange(range.position(), range.buffer().length));
      }
      in.readVectored(wanted, ByteBuffer::allocate);
      for (int i = 0; i < wanted.size(); i++) {
        ByteBuffer data = awaitRange(wanted.get(i));
        data.get(ranges.get(i).buffer());
      }
    }

    private ByteBuffer awaitRange(FileRange range) throws IOException {
      try {
        return range.getData().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(name + ": read interrupted");
      } catch (ExecutionException e) {
        Throwables.throwIfInstanceOf(e.getCause(), IOException.class);
        throw new IOException(name + ": vectored read failed", e.getCause());
      }
    }

    /** Replaces a stream that an interrupt closed, once, whichever reader meets it first. */
    private synchronized FSDataInputStream reopen(FSDataInputStream failed) throws IOException {
      if (in == failed) {
        try {
          failed.close();
        } catch (IOException e) {
          // already closed by the interrupt
        }
        in = reopener.open();
      }
      return in;
    }

    @Override
    public synchronized void close() throws IOException {
      closed = true;
      in.close();
    }
  }
}
