package org.hpf.internal.io;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options.CreateFileOptionKeys;
import org.apache.hadoop.fs.Path;

/**
 * What hpf may do on the store an archive lives on. A writer commits a generation by renaming
 * its manifest into {@code _manifests/}, takes the archive's lock by an exclusive create, and
 * needs both to be atomic: on an object store a rename copies then deletes and a create checks
 * then writes, so two writers, or a crash mid-rename, could corrupt an archive that may be the
 * only copy of its members.
 *
 * <p>The profile is told by what the file system declares of the path ({@link
 * FileSystem#hasPathCapability}), never by its scheme: Hadoop names no "atomic rename"
 * capability, but a store that recovers leases (HDFS) or hands out path handles (a file
 * resolved by identity, wherever it is renamed: a POSIX disk) names files by inode, and renames
 * by moving a name rather than copying bytes; a store whose output streams are abortable
 * publishes objects whole at close, as object stores do, and never counts as such. An operator
 * can override the probe for a store that misreports ({@link #KEY}).
 */
public enum StorageProfile {
  /** Atomic, non-replacing rename and exclusive create: hpf commits (HDFS, a local disk). */
  RENAME,
  /**
   * No atomic rename, but a create that fails where the object exists (S3's If-None-Match):
   * hpf has no commit built on it yet, so archives here are read, not changed.
   */
  CONDITIONAL_CREATE,
  /** Neither: archives here are read, never changed. */
  READ_ONLY;

  /** The setting that overrides the probe: {@code auto} (the default), {@code rename} or
   * {@code read-only}. */
  public static final String KEY = "hpf.storage.profile";

  /** The path capability of a create that fails where the object exists. */
  public static final String CONDITIONAL_CREATE_CAPABILITY =
      CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE;

  /** The profile of {@code path}'s store, as {@code conf} overrides it or the store declares. */
  public static StorageProfile of(FileSystem fs, Path path, Configuration conf)
      throws IOException {
    String setting = conf.getTrimmed(KEY, "auto").toLowerCase(Locale.ROOT);
    switch (setting) {
      case "auto":
        return probe(fs, path);
      case "rename":
        return RENAME;
      case "read-only":
        return READ_ONLY;
      default:
        throw new IllegalArgumentException(KEY + "=" + setting
            + " is not a storage profile: use auto, rename or read-only");
    }
  }

  /**
   * True where {@code path}'s store is an object store by its own account and {@code conf}
   * does not make it a rename store: asking it for a file's length costs a request, and only
   * readers use it, so files of an archive, which never change once written, can be opened at
   * the lengths the archive or a listing gives.
   */
  public static boolean readOnlyObjectStore(FileSystem fs, Path path, Configuration conf)
      throws IOException {
    return probe(fs, path) != RENAME && of(fs, path, conf) != RENAME;
  }

  /** The profile {@code path}'s store declares by its path capabilities. */
  public static StorageProfile probe(FileSystem fs, Path path) throws IOException {
    boolean publishesAtClose = fs.hasPathCapability(path, CommonPathCapabilities.ABORTABLE_STREAM);
    boolean namesByInode = fs.hasPathCapability(path, CommonPathCapabilities.LEASE_RECOVERABLE)
        || fs.hasPathCapability(path, CommonPathCapabilities.FS_PATHHANDLES);
    if (namesByInode && !publishesAtClose) {
      return RENAME;
    }
    return fs.hasPathCapability(path, CONDITIONAL_CREATE_CAPABILITY) ? CONDITIONAL_CREATE
        : READ_ONLY;
  }
}
