package org.hpf.internal.hdfs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.WriteSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which cache pool holds an archive's directives, and making it. HDFS lists a pool's directives
 * (they name an archive's index files, its generation and their sizes) to whoever may read the
 * pool, and lets whoever may write to it add and remove them. So the pool belongs to the
 * archive's owner: {@link WriteSettings#CACHE_POOL_OWNER} in the pool setting (the default
 * {@code hpf-{owner}}) stands for the owner of the archive's directory, and a pool hpf creates
 * is that owner's alone, mode 0700. Whoever may read the archive's directory no longer matters
 * to who sees its pins; the owner pins, re-pins and cleans up after their own changes.
 */
final class CachePools {
  private static final Logger LOG = LoggerFactory.getLogger(CachePools.class);
  private static final FsPermission OWNER_ONLY = new FsPermission((short) 0700);

  /** A pool for one archive: its name, and whose it is when hpf creates it. */
  record Pool(String name, String owner) {}

  private CachePools() {}

  /**
   * The pool {@code setting} names for the archive at {@code root}: the owner of the archive's
   * directory in place of {@link WriteSettings#CACHE_POOL_OWNER}, and then its owner when hpf
   * creates it; a pool named without it is its creator's. One NameNode call, only with it.
   *
   * @throws InvalidCachePoolException where the name breaks {@link CachePoolName}'s rules
   */
  static Pool of(DistributedFileSystem fs, Path root, String setting) throws IOException {
    if (!setting.contains(WriteSettings.CACHE_POOL_OWNER)) {
      return new Pool(CachePoolName.check(setting, setting, null, root), currentUser());
    }
    String owner = fs.getFileStatus(root).getOwner();
    return new Pool(CachePoolName.check(setting.replace(WriteSettings.CACHE_POOL_OWNER, owner),
        setting, owner, root), owner);
  }

  /** Null when the pool exists or was created; else what is wrong, with the fix. */
  static String ensure(DistributedFileSystem fs, Pool pool, boolean create) throws IOException {
    for (RemoteIterator<CachePoolEntry> it = fs.listCachePools(); it.hasNext(); ) {
      if (it.next().getInfo().getPoolName().equals(pool.name())) {
        return null;
      }
    }
    if (!create) {
      return "cache pool '" + pool.name() + "' does not exist (create it: " + addPool(pool) + ")";
    }
    try {
      fs.addCachePool(new CachePoolInfo(pool.name()).setOwnerName(pool.owner())
          .setMode(OWNER_ONLY));
      LOG.info("created cache pool '{}' of {}", pool.name(), pool.owner());
      return null;
    } catch (IOException e) {
      if (CachePinning.isAccessDenied(e)) {
        return "cache pool '" + pool.name() + "' does not exist and user " + currentUser()
            + " may not create it (only the HDFS superuser can: " + addPool(pool) + ")";
      }
      if (String.valueOf(e.getMessage()).contains("already exists")) {
        return null; // created by someone else meanwhile
      }
      throw e;
    }
  }

  /** What a user without WRITE on {@code pool} is told to ask for. */
  static String writeRefused(Pool pool) {
    return "user " + currentUser() + " may not add cache directives to pool '" + pool.name()
        + "' (needs WRITE permission on the pool, which HDFS gives its owner: hdfs cacheadmin"
        + " -modifyPool " + CachePoolName.quoted(pool.name()) + " -owner "
        + CachePoolName.quoted(currentUser()) + ")";
  }

  private static String addPool(Pool pool) {
    return "hdfs cacheadmin -addPool " + CachePoolName.quoted(pool.name()) + " -owner "
        + CachePoolName.quoted(pool.owner()) + " -mode 0700";
  }

  static String currentUser() {
    try {
      return UserGroupInformation.getCurrentUser().getShortUserName();
    } catch (IOException e) {
      return "(unknown)";
    }
  }
}
