package org.hpf.fs;

import static org.apache.hadoop.fs.impl.PathCapabilitiesSupport.validatePathCapabilityArgs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.MultipartUploaderBuilder;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.hpf.FileNotInArchiveException;
import org.hpf.ReadSettings;
import org.hpf.StaleGenerationException;
import org.hpf.fs.ArchiveCache.Lease;
import org.hpf.fs.HpfPaths.Location;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.IndexMemory;
import org.hpf.internal.read.ReaderOptions;

/**
 * A read-only Hadoop {@link FileSystem} over hpf archives: {@code hpf://<scheme>-<authority>/
 * <path/to/archive.hpf>/<member>} (see {@link HpfPaths} and docs/HPF-FILESYSTEM.md). Registered
 * through {@code META-INF/services}, so a jar on the classpath is all a Hadoop tool needs.
 *
 * <p>Members are files; the {@code /} in their names imply directories (the archive directory is
 * the root of the tree). Listings stream the archive's sorted names; {@code open} returns a
 * seekable, positionable stream; block locations are those of the part file blocks that hold a
 * member's bytes; {@code getFileChecksum} is the member's stored CRC32C. Every mutating call
 * throws {@link HpfReadOnlyException}.
 *
 * <p>One instance serves every archive of one underlying file system and caches each archive's
 * reader; a newer generation committed by a writer is picked up at most
 * {@value #CHECK_INTERVAL_DEFAULT} ms later ({@value #CHECK_INTERVAL_KEY}).
 */
public class HpfFileSystem extends FileSystem {
  /** How often, at most, an open archive is checked for a newer generation (milliseconds). */
  public static final String CHECK_INTERVAL_KEY = "fs.hpf.generation.check.interval.ms";
  /** Default of {@link #CHECK_INTERVAL_KEY}: one second. */
  public static final long CHECK_INTERVAL_DEFAULT = 1000;
  /**
   * Raw members up to this many bytes are read whole when opened (one read, verified at once);
   * larger ones are read in place. Compressed members are always decompressed in memory.
   */
  public static final String IN_MEMORY_KEY = "fs.hpf.open.in-memory.max.bytes";
  /** Default of {@link #IN_MEMORY_KEY}: 1 MiB. */
  public static final long IN_MEMORY_DEFAULT = 1 << 20;
  /**
   * The most directories an archive may have for the file system to keep their set in memory
   * (about 100 bytes each), built by one pass over the names when first needed; an archive with
   * more answers "is this a directory?" by reading its sorted names. 0 keeps no set.
   */
  public static final String DIRECTORY_SET_KEY = "fs.hpf.directory-set.max.entries";
  /** Default of {@link #DIRECTORY_SET_KEY}. */
  public static final int DIRECTORY_SET_DEFAULT = 200_000;
  /**
   * Heap per open archive for the index records of recent gets, so that a warm get of a hot
   * member reads only its entry; 0 keeps none. See {@link org.hpf.ReadSettings#recordCacheBytes}.
   * Unset, it is {@link #RECORD_CACHE_OBJECT_STORE_DEFAULT} over an object store and 0
   * elsewhere.
   */
  public static final String RECORD_CACHE_KEY = "fs.hpf.record-cache.bytes";
  /**
   * Default of {@link #RECORD_CACHE_KEY} over an object store: 4 MiB, about 22,000 records.
   * There every index read is a request, and programs stat a file before they open it: the
   * open then finds the record the stat looked up.
   */
  public static final long RECORD_CACHE_OBJECT_STORE_DEFAULT = 4 << 20;
  /**
   * The most bytes of a part read at once when the opens before a member say its neighbours
   * will be opened soon (members opened in the order of their entries, as a job's scan opens
   * them, or many members of one region of a part): the members the window holds are served
   * from it, each checked before it is handed out. Other opens read exactly the member's entry,
   * and whatever the order, members read whole cost at most 1.5 times their stored bytes
   * ({@link ReadAhead}). 0 turns the read-ahead off. See docs/HPF-FILESYSTEM.md.
   */
  public static final String READ_AHEAD_KEY = "fs.hpf.readahead.bytes";
  /** Default of {@link #READ_AHEAD_KEY}: 4 MiB. */
  public static final long READ_AHEAD_DEFAULT = 4 << 20;
  /**
   * The most heap for index records read whole, all the archives this file system has open
   * together, so that a get in a bucket looked up often reads only its entry; 0 keeps none. See
   * {@link org.hpf.ReadSettings#indexMemoryBytes}, whose default it has.
   */
  public static final String INDEX_MEMORY_KEY = "fs.hpf.index-memory.bytes";

  private URI uri;
  private FileSystem underlying;
  private Path underlyingRoot;
  private Path workingDirectory;
  private ArchiveCache cache;
  private ArchiveListing listing;
  private long inMemoryLimit;
  private ReadAhead readAhead;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String authority = name.getAuthority();
    uri = URI.create(HpfPaths.SCHEME + "://" + (authority == null ? "" : authority) + "/");
    FileSystem fs = FileSystem.get(HpfPaths.underlyingUri(name, conf), conf);
    // hpf checks every byte it reads itself: the local file system's .crc side files add nothing.
    underlying = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    underlyingRoot = underlying.makeQualified(new Path("/"));
    workingDirectory = new Path(HpfPaths.SCHEME, uri.getAuthority(),
        underlying.getWorkingDirectory().toUri().getPath());
    inMemoryLimit = conf.getLong(IN_MEMORY_KEY, IN_MEMORY_DEFAULT);
    readAhead = new ReadAhead(conf.getLongBytes(READ_AHEAD_KEY, READ_AHEAD_DEFAULT),
        inMemoryLimit);
    cache = new ArchiveCache(underlying, conf.getLong(CHECK_INTERVAL_KEY,
        CHECK_INTERVAL_DEFAULT), conf.getInt(DIRECTORY_SET_KEY, DIRECTORY_SET_DEFAULT),
        ReaderOptions.defaults().withRecordCacheBytes(recordCacheBytes(conf))
            .withSharedIndexMemory(new IndexMemory(conf.getLongBytes(INDEX_MEMORY_KEY,
                ReadSettings.DEFAULT_INDEX_MEMORY_BYTES))), readAhead::charge);
    listing = new ArchiveListing(uri.getAuthority());
  }

  private long recordCacheBytes(Configuration conf) throws IOException {
    if (conf.get(RECORD_CACHE_KEY) != null) {
      return conf.getLongBytes(RECORD_CACHE_KEY, 0);
    }
    return StorageProfile.readOnlyObjectStore(underlying, underlyingRoot, conf)
        ? RECORD_CACHE_OBJECT_STORE_DEFAULT : 0;
  }

  @Override
  public String getScheme() {
    return HpfPaths.SCHEME;
  }

  @Override
  public URI getUri() {
    return uri;
  }

  /**
   * The file system that holds the archives.
   *
   * @return the underlying file system
   */
  public FileSystem getUnderlyingFileSystem() {
    return underlying;
  }

  /**
   * The archive that holds a path.
   *
   * @param path an {@code hpf://} path
   * @return the archive's directory on the underlying file system
   */
  public Path archiveOf(Path path) {
    return locate(path).archive();
  }

  /**
   * The member a path names.
   *
   * @param path an {@code hpf://} path
   * @return the member's name, or an implied directory's, or "" for the archive itself
   */
  public String memberOf(Path path) {
    return locate(path).member();
  }

  @Override
  public String getCanonicalServiceName() {
    return null; // no tokens of its own: the underlying file system's are collected
  }

  @Override
  public FileSystem[] getChildFileSystems() {
    return new FileSystem[] {underlying};
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDirectory;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDirectory = makeQualified(dir);
  }

  // ---- reading ----

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    Location location = locate(path);
    return withArchive(location, lease -> {
      FileStatus status = listing.status(lease.archive(), location.member());
      if (status == null) {
        throw notFound(path);
      }
      return status;
    });
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    Location location = locate(path);
    return onArchive(location, true, lease -> new FSDataInputStream(
        openMember(lease, location.member(), path).countingIn(statistics)));
  }

  /** Opens a member; the stream owns the lease (and releases it on close). */
  private MemberInputStream openMember(Lease lease, String member, Path path)
      throws IOException {
    HpfReader reader = lease.reader();
    String description = path.toString();
    byte[] ahead = member.isEmpty() ? null : readAhead.fromWindow(lease.archive(), member);
    if (ahead != null) {
      lease.close();
      return MemberInputStream.inMemory(description, ahead, () -> {});
    }
    // get and stat below compare the stored name: a name sharing a member's hash fails there.
    // A member a listing showed lately needs no lookup: its names entry gave its record.
    IndexRecord record = member.isEmpty() ? null : lease.archive().listed.of(reader, member);
    if (record == null && !member.isEmpty()) {
      record = reader.recordOfHash(member);
    }
    if (record == null) {
      throw ArchiveListing.isDirectory(lease.archive(), member)
          ? new FileNotFoundException(path + " is a directory") : notFound(path);
    }
    if (record.codec() != Codec.RAW || record.originalLength() <= inMemoryLimit) {
      byte[] bytes = readAhead.read(lease.archive(), record, member);
      lease.close();
      return MemberInputStream.inMemory(description, bytes, () -> {});
    }
    // The entry header is read and checked against the record and the name.
    readAhead.servedInPlace(record);
    return MemberInputStream.inPlace(description, reader.inPlace(member, description),
        lease::close);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    RemoteIterator<FileStatus> it = listStatusIterator(path);
    while (it.hasNext()) {
      all.add(it.next());
    }
    return all.toArray(new FileStatus[0]);
  }

  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path path) throws IOException {
    Location location = locate(path);
    return streaming(location, path, lease -> listing.children(lease, location.member()),
        status -> status);
  }

  @Override
  public RemoteIterator<LocatedFileStatus> listLocatedStatus(Path path) throws IOException {
    Location location = locate(path);
    return streaming(location, path,
        lease -> listing.locatedChildren(lease, location.member()), status -> status);
  }

  @Override
  public RemoteIterator<LocatedFileStatus> listFiles(Path path, boolean recursive)
      throws IOException {
    Location location = locate(path);
    return streaming(location, path,
        lease -> listing.files(lease, location.member(), recursive), status -> status);
  }

  /**
   * A listing of a directory, streamed (the iterator holds the archive until it is exhausted
   * or closed), or of a file: that file alone.
   */
  private <T extends FileStatus> RemoteIterator<T> streaming(Location location, Path path,
      IoFunction<Lease, RemoteIterator<T>> directory, IoFunction<LocatedFileStatus, T> file)
      throws IOException {
    return onArchive(location, true, lease -> {
      String member = location.member();
      HpfReader reader = lease.reader();
      boolean directoryAlone = ArchiveListing.onlyADirectory(lease.archive(), member);
      IndexRecord record = member.isEmpty() || directoryAlone ? null : reader.record(member);
      if (record != null) {
        EntryStatus stat = reader.stat(member);
        FileStatus status = listing.file(lease.archive(), member, stat.length(),
            stat.mtimeMillis(), stat.access());
        T single = file.apply(listing.located(lease.archive(), status, member, record));
        lease.close(); // the single status does not need the archive
        return new SingleIterator<>(single);
      }
      if (!directoryAlone && !ArchiveListing.isDirectory(lease.archive(), member)) {
        throw notFound(path);
      }
      return directory.apply(lease);
    });
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long length)
      throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || length < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter");
    }
    if (file.getLen() <= start || file.isDirectory()) {
      return new BlockLocation[0];
    }
    Location location = locate(file.getPath());
    return withArchive(location, lease -> listing.blockLocations(lease.archive(),
        location.member(), start, length));
  }

  /** The member's CRC32C as its entry stores it; for a prefix, computed by reading it. */
  @Override
  public FileChecksum getFileChecksum(Path path, long length) throws IOException {
    Location location = locate(path);
    Integer stored = withArchive(location, lease -> {
      HpfReader reader = lease.reader();
      IndexRecord record = location.isArchiveRoot() ? null : reader.record(location.member());
      if (record == null) {
        throw ArchiveListing.isDirectory(lease.archive(), location.member())
            ? new FileNotFoundException(path + " is a directory, not a file")
            : notFound(path);
      }
      if (length < record.originalLength()) {
        return null;
      }
      return reader.contentChecksum(record);
    });
    if (stored != null) {
      return new HpfFileChecksum(stored);
    }
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[64 * 1024];
    try (FSDataInputStream in = open(path)) {
      long left = Math.max(0, length);
      while (left > 0) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          break;
        }
        crc.update(buffer, 0, n);
        left -= n;
      }
    }
    return new HpfFileChecksum((int) crc.getValue());
  }

  @Override
  public ContentSummary getContentSummary(Path path) throws IOException {
    Location location = locate(path);
    return withArchive(location, lease -> {
      FileStatus status = listing.status(lease.archive(), location.member());
      if (status == null) {
        throw notFound(path);
      }
      if (status.isFile()) {
        return new ContentSummary.Builder().length(status.getLen()).fileCount(1)
            .directoryCount(0).spaceConsumed(status.getLen()).build();
      }
      return listing.summary(lease.reader(), location.member());
    });
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_READ_ONLY_CONNECTOR:
      case CommonPathCapabilities.FS_CHECKSUMS:
        return true;
      default:
        // No append, concat, truncate, permissions, ACLs, xattrs, snapshots, storage
        // policies, symlinks, path handles, multipart uploads or bulk delete.
        return false;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (cache != null) {
        cache.close();
      }
    } finally {
      super.close();
    }
  }

  // ---- helpers ----

  @FunctionalInterface
  interface IoFunction<A, R> {
    R apply(A a) throws IOException;
  }

  /** Runs a call on the archive's reader; a reader whose files a writer removed is reopened. */
  private <T> T withArchive(Location location, IoFunction<Lease, T> call) throws IOException {
    return onArchive(location, false, call);
  }

  /**
   * Runs a call on the archive's reader, once more on a reader opened anew if a writer removed
   * files of the first one's generation. The lease ends with the call, unless
   * {@code resultHoldsLease} (a stream, an iterator): then the result ends it, and it ends here
   * only if the call fails.
   */
  private <T> T onArchive(Location location, boolean resultHoldsLease,
      IoFunction<Lease, T> call) throws IOException {
    for (int attempt = 0;; attempt++) {
      Lease lease = cache.acquire(location.archive());
      boolean handedOver = false;
      try {
        T result = call.apply(lease);
        handedOver = resultHoldsLease;
        return result;
      } catch (StaleGenerationException e) {
        if (attempt > 0) {
          throw e;
        }
        cache.invalidate(location.archive());
      } catch (FileNotInArchiveException e) {
        // A file system reports a missing path in Hadoop's terms.
        throw (FileNotFoundException) new FileNotFoundException(e.getMessage()).initCause(e);
      } finally {
        if (!handedOver) {
          lease.close();
        }
      }
    }
  }

  /**
   * Makes the next call on an archive open its newest generation.
   *
   * @param archive the archive's directory on the underlying file system
   * @throws IOException if closing the reader of its current generation fails
   */
  protected void refresh(Path archive) throws IOException {
    cache.invalidate(archive);
  }

  Location locate(Path path) {
    return HpfPaths.locate(makeQualified(path), underlyingRoot);
  }

  private static FileNotFoundException notFound(Path path) {
    return new FileNotFoundException("No such file or directory: " + path);
  }

  private static final class SingleIterator<T> implements RemoteIterator<T> {
    private T item;

    SingleIterator(T item) {
      this.item = item;
    }

    @Override
    public boolean hasNext() {
      return item != null;
    }

    @Override
    public T next() {
      if (item == null) {
        throw new java.util.NoSuchElementException();
      }
      T result = item;
      item = null;
      return result;
    }
  }

  // ---- every mutating operation: read-only ----

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    throw new HpfReadOnlyException("create", f);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    throw new HpfReadOnlyException("create", f);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw new HpfReadOnlyException("append", f);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw new HpfReadOnlyException("rename", src);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw new HpfReadOnlyException("delete", f);
  }

  @Override
  public boolean deleteOnExit(Path f) throws IOException {
    throw new HpfReadOnlyException("deleteOnExit", f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw new HpfReadOnlyException("mkdirs", f);
  }

  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    throw new HpfReadOnlyException("concat", trg);
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    throw new HpfReadOnlyException("truncate", f);
  }

  @Override
  public boolean setReplication(Path src, short replication) throws IOException {
    throw new HpfReadOnlyException("setReplication", src);
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    throw new HpfReadOnlyException("setPermission", p);
  }

  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    throw new HpfReadOnlyException("setOwner", p);
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    throw new HpfReadOnlyException("setTimes", p);
  }

  @Override
  public void createSymlink(Path target, Path link, boolean createParent) throws IOException {
    throw new HpfReadOnlyException("createSymlink", link);
  }

  @Override
  public Path createSnapshot(Path path, String snapshotName) throws IOException {
    throw new HpfReadOnlyException("createSnapshot", path);
  }

  @Override
  public void renameSnapshot(Path path, String snapshotOldName, String snapshotNewName)
      throws IOException {
    throw new HpfReadOnlyException("renameSnapshot", path);
  }

  @Override
  public void deleteSnapshot(Path path, String snapshotName) throws IOException {
    throw new HpfReadOnlyException("deleteSnapshot", path);
  }

  @Override
  public void modifyAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    throw new HpfReadOnlyException("modifyAclEntries", path);
  }

  @Override
  public void removeAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    throw new HpfReadOnlyException("removeAclEntries", path);
  }

  @Override
  public void removeDefaultAcl(Path path) throws IOException {
    throw new HpfReadOnlyException("removeDefaultAcl", path);
  }

  @Override
  public void removeAcl(Path path) throws IOException {
    throw new HpfReadOnlyException("removeAcl", path);
  }

  @Override
  public void setAcl(Path path, List<AclEntry> aclSpec) throws IOException {
    throw new HpfReadOnlyException("setAcl", path);
  }

  @Override
  public void setXAttr(Path path, String name, byte[] value, EnumSet<XAttrSetFlag> flag)
      throws IOException {
    throw new HpfReadOnlyException("setXAttr", path);
  }

  @Override
  public void removeXAttr(Path path, String name) throws IOException {
    throw new HpfReadOnlyException("removeXAttr", path);
  }

  @Override
  public void setStoragePolicy(Path src, String policyName) throws IOException {
    throw new HpfReadOnlyException("setStoragePolicy", src);
  }

  @Override
  public void unsetStoragePolicy(Path src) throws IOException {
    throw new HpfReadOnlyException("unsetStoragePolicy", src);
  }

  @Override
  public void satisfyStoragePolicy(Path path) throws IOException {
    throw new HpfReadOnlyException("satisfyStoragePolicy", path);
  }

  @Override
  public void setQuota(Path src, long namespaceQuota, long storagespaceQuota)
      throws IOException {
    throw new HpfReadOnlyException("setQuota", src);
  }

  @Override
  public void setQuotaByStorageType(Path src, StorageType type, long quota) throws IOException {
    throw new HpfReadOnlyException("setQuotaByStorageType", src);
  }

  @Override
  public void copyFromLocalFile(boolean delSrc, boolean overwrite, Path[] srcs, Path dst)
      throws IOException {
    throw new HpfReadOnlyException("copyFromLocalFile", dst);
  }

  @Override
  public void copyFromLocalFile(boolean delSrc, boolean overwrite, Path src, Path dst)
      throws IOException {
    throw new HpfReadOnlyException("copyFromLocalFile", dst);
  }

  @Override
  public Path startLocalOutput(Path fsOutputFile, Path tmpLocalFile) throws IOException {
    throw new HpfReadOnlyException("startLocalOutput", fsOutputFile);
  }

  // Not overridden: createBulkDelete (Hadoop 3.4.1+), whose default deletes through delete(),
  // which refuses; overriding it would keep Hadoop 3.3 clients (Spark's) from loading the class.

  @Override
  public MultipartUploaderBuilder createMultipartUploader(Path basePath) throws IOException {
    throw new HpfReadOnlyException("createMultipartUploader", basePath);
  }
}
