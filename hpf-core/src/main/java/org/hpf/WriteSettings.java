package org.hpf;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * How one writer works: its threads, compression, progress, and on HDFS its storage policy and
 * cache pinning (ignored, and said so in the log, on other file systems). Immutable; build with
 * {@link #builder()} or read from a {@link Configuration} with {@link #from}.
 */
public final class WriteSettings {
  /** Configuration key of {@link Builder#threads}. */
  public static final String THREADS_KEY = "hpf.write.threads";
  /** Configuration key of {@link Builder#compression}: {@code auto}, {@code lz4} or
   * {@code none}. */
  public static final String COMPRESSION_KEY = "hpf.write.compression";
  /** Configuration key of {@link Builder#symlinks}: {@code skip}, {@code follow} or
   * {@code fail}. */
  public static final String SYMLINKS_KEY = "hpf.write.symlinks";
  /** Configuration key of {@link Builder#scratchDirectory}, a local directory. */
  public static final String SCRATCH_DIR_KEY = "hpf.write.scratch.dir";
  /** Configuration key of {@link Builder#retainGenerations}. */
  public static final String RETAIN_GENERATIONS_KEY = "hpf.write.retain.generations";
  /** Configuration key of {@link Builder#partStoragePolicy}, an HDFS storage policy name. */
  public static final String PART_STORAGE_POLICY_KEY = "hpf.hdfs.part.storage.policy";
  /** Configuration key of {@link Builder#pinIndex}. */
  public static final String PIN_INDEX_KEY = "hpf.hdfs.cache.pin";
  /** Configuration key of {@link Builder#cachePool}. */
  public static final String CACHE_POOL_KEY = "hpf.hdfs.cache.pool";
  /**
   * In a {@link Builder#cachePool} name, the owner of the archive's directory: each owner's
   * archives are pinned in a pool of their own, which only they (and the HDFS superuser) may list
   * and change.
   */
  public static final String CACHE_POOL_OWNER = "{owner}";
  /** Configuration key of {@link Builder#cacheTtl}, a duration ({@code 7d}, {@code 12h};
   * unset for ever). */
  public static final String CACHE_TTL_KEY = "hpf.hdfs.cache.ttl";
  /** Configuration key of {@link Builder#cacheReplication}. */
  public static final String CACHE_REPLICATION_KEY = "hpf.hdfs.cache.replication";
  /** Configuration key of {@link Builder#createCachePool}. */
  public static final String CREATE_CACHE_POOL_KEY = "hpf.hdfs.cache.create.pool";

  /** The storage policy whose replicas DataNodes write to memory (RAM_DISK) first. */
  public static final String LAZY_PERSIST = "LAZY_PERSIST";

  private final int threads;
  private final Compression compression;
  private final ProgressListener progress;
  private final SymlinkPolicy symlinks;
  private final Path scratchDirectory;
  private final int retainGenerations;
  private final boolean breakLock;
  private final boolean allowAccessLoss;
  private final String partStoragePolicy;
  private final boolean pinIndex;
  private final String cachePool;
  private final Duration cacheTtl;
  private final int cacheReplication;
  private final boolean createCachePool;
  private final MemberAccess defaultAccess;

  private WriteSettings(Builder b) {
    this.threads = b.threads;
    this.compression = b.compression;
    this.progress = b.progress;
    this.symlinks = b.symlinks;
    this.scratchDirectory = b.scratchDirectory;
    this.retainGenerations = b.retainGenerations;
    this.breakLock = b.breakLock;
    this.allowAccessLoss = b.allowAccessLoss;
    this.partStoragePolicy = b.partStoragePolicy;
    this.pinIndex = b.pinIndex;
    this.cachePool = b.cachePool;
    this.cacheTtl = b.cacheTtl;
    this.cacheReplication = b.cacheReplication;
    this.createCachePool = b.createCachePool;
    this.defaultAccess = b.defaultAccess;
  }

  /**
   * A builder with the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The defaults (see each {@link Builder} method).
   *
   * @return the default settings
   */
  public static WriteSettings defaults() {
    return builder().build();
  }

  /**
   * The settings the {@code hpf.write.*} and {@code hpf.hdfs.*} keys of {@code conf} give,
   * defaults for keys not set.
   *
   * @param conf the configuration to read
   * @return the settings
   * @throws IllegalArgumentException if a value is not valid
   */
  public static WriteSettings from(Configuration conf) {
    return builder(conf).build();
  }

  /**
   * A builder holding what the {@code hpf.write.*} and {@code hpf.hdfs.*} keys of {@code conf}
   * say, defaults for keys not set: for a program whose own options override the keys.
   *
   * @param conf the configuration to read
   * @return a new builder
   * @throws IllegalArgumentException if a value is not valid
   */
  public static Builder builder(Configuration conf) {
    Builder b = builder();
    b.threads(conf.getInt(THREADS_KEY, b.threads));
    b.compression(Compression.valueOf(conf.get(COMPRESSION_KEY, b.compression.name())
        .trim().toUpperCase(Locale.ROOT)));
    b.symlinks(SymlinkPolicy.valueOf(conf.get(SYMLINKS_KEY, b.symlinks.name())
        .trim().toUpperCase(Locale.ROOT)));
    String scratch = conf.getTrimmed(SCRATCH_DIR_KEY);
    if (scratch != null) {
      b.scratchDirectory(Path.of(scratch));
    }
    b.retainGenerations(conf.getInt(RETAIN_GENERATIONS_KEY, b.retainGenerations));
    b.partStoragePolicy(conf.getTrimmed(PART_STORAGE_POLICY_KEY));
    b.pinIndex(conf.getBoolean(PIN_INDEX_KEY, b.pinIndex));
    b.cachePool(conf.getTrimmed(CACHE_POOL_KEY, b.cachePool));
    if (conf.getTrimmed(CACHE_TTL_KEY) != null) {
      b.cacheTtl(Duration.ofMillis(conf.getTimeDuration(CACHE_TTL_KEY, 0,
          java.util.concurrent.TimeUnit.MILLISECONDS)));
    }
    b.cacheReplication(conf.getInt(CACHE_REPLICATION_KEY, b.cacheReplication));
    b.createCachePool(conf.getBoolean(CREATE_CACHE_POOL_KEY, b.createCachePool));
    return b;
  }

  /**
   * Merge threads, each writing its own part file.
   *
   * @return the setting (see {@link Builder#threads})
   */
  public int threads() {
    return threads;
  }

  /**
   * When members are stored LZ4-compressed.
   *
   * @return the setting (see {@link Builder#compression})
   */
  public Compression compression() {
    return compression;
  }

  /**
   * The listener of long work.
   *
   * @return the setting (see {@link Builder#progress})
   */
  public ProgressListener progress() {
    return progress;
  }

  /**
   * What {@link ArchiveWriter#addTree} does with symbolic links.
   *
   * @return the setting (see {@link Builder#symlinks})
   */
  public SymlinkPolicy symlinks() {
    return symlinks;
  }

  /**
   * The local directory of the writer's sorted runs.
   *
   * @return the setting (see {@link Builder#scratchDirectory})
   */
  public Path scratchDirectory() {
    return scratchDirectory;
  }

  /**
   * Generations whose files a commit keeps.
   *
   * @return the setting (see {@link Builder#retainGenerations})
   */
  public int retainGenerations() {
    return retainGenerations;
  }

  /**
   * Whether opening removes a dead writer's lock.
   *
   * @return the setting (see {@link Builder#breakLock})
   */
  public boolean breakLock() {
    return breakLock;
  }

  /**
   * Whether a change may go ahead when its archive would take from users access they had.
   *
   * @return the setting (see {@link Builder#allowAccessLoss})
   */
  public boolean allowAccessLoss() {
    return allowAccessLoss;
  }

  /**
   * HDFS: the storage policy of merged parts, or null for the directory's.
   *
   * @return the setting (see {@link Builder#partStoragePolicy})
   */
  public String partStoragePolicy() {
    return partStoragePolicy;
  }

  /**
   * HDFS: whether commits pin index files with cache directives.
   *
   * @return the setting (see {@link Builder#pinIndex})
   */
  public boolean pinIndex() {
    return pinIndex;
  }

  /**
   * HDFS: the cache pool of the directives, {@link #CACHE_POOL_OWNER} standing for the archive's
   * owner.
   *
   * @return the setting (see {@link Builder#cachePool})
   */
  public String cachePool() {
    return cachePool;
  }

  /**
   * HDFS: how long a directive lives, or null for ever.
   *
   * @return the setting (see {@link Builder#cacheTtl})
   */
  public Duration cacheTtl() {
    return cacheTtl;
  }

  /**
   * HDFS: cached replicas per block.
   *
   * @return the setting (see {@link Builder#cacheReplication})
   */
  public int cacheReplication() {
    return cacheReplication;
  }

  /**
   * HDFS: whether a missing cache pool is created.
   *
   * @return the setting (see {@link Builder#createCachePool})
   */
  public boolean createCachePool() {
    return createCachePool;
  }

  /**
   * The owner, group and mode of members added without their own (by
   * {@link ArchiveWriter#add(String, InputStream, long, long)} and the like, and by
   * {@link ArchiveWriter#addTree} for files of a local file system without POSIX attributes).
   *
   * @return the access set with {@link Builder#defaultAccess}, or empty for
   *     {@link MemberAccess#defaultFor} the writer's configuration
   */
  public Optional<MemberAccess> defaultAccess() {
    return Optional.ofNullable(defaultAccess);
  }

  /**
   * HDFS: whether merged parts are asked to be written with {@value #LAZY_PERSIST}.
   *
   * @return true when {@link #partStoragePolicy()} is {@value #LAZY_PERSIST}
   */
  public boolean lazyPersist() {
    return LAZY_PERSIST.equals(partStoragePolicy);
  }

  /**
   * A builder holding these settings, to change some of them.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.threads = threads;
    b.compression = compression;
    b.progress = progress;
    b.symlinks = symlinks;
    b.scratchDirectory = scratchDirectory;
    b.retainGenerations = retainGenerations;
    b.breakLock = breakLock;
    b.allowAccessLoss = allowAccessLoss;
    b.partStoragePolicy = partStoragePolicy;
    b.pinIndex = pinIndex;
    b.cachePool = cachePool;
    b.cacheTtl = cacheTtl;
    b.cacheReplication = cacheReplication;
    b.createCachePool = createCachePool;
    b.defaultAccess = defaultAccess;
    return b;
  }

  @Override
  public String toString() {
    return "WriteSettings[threads=" + threads + ", compression=" + compression + ", symlinks="
        + symlinks + ", scratchDirectory=" + scratchDirectory + ", retainGenerations="
        + retainGenerations + ", breakLock=" + breakLock + ", allowAccessLoss=" + allowAccessLoss
        + ", partStoragePolicy="
        + partStoragePolicy + ", pinIndex=" + pinIndex + ", cachePool=" + cachePool
        + ", cacheTtl=" + cacheTtl + ", cacheReplication=" + cacheReplication
        + ", createCachePool=" + createCachePool + ", defaultAccess=" + defaultAccess + "]";
  }

  /** Builder of {@link WriteSettings}; it may build several, each with what it held then. */
  public static final class Builder {
    private int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private Compression compression = Compression.AUTO;
    private ProgressListener progress = ProgressListener.NONE;
    private SymlinkPolicy symlinks = SymlinkPolicy.SKIP;
    private Path scratchDirectory = Path.of(System.getProperty("java.io.tmpdir"));
    private int retainGenerations = 2;
    private boolean breakLock;
    private boolean allowAccessLoss;
    private String partStoragePolicy;
    private boolean pinIndex = true;
    private String cachePool = "hpf-" + CACHE_POOL_OWNER;
    private Duration cacheTtl;
    private int cacheReplication = 1;
    private boolean createCachePool = true;
    private MemberAccess defaultAccess;

    private Builder() {}

    /**
     * Merge threads, each writing its own part file. Default: the cores, at least 2.
     *
     * @param value at least 1
     * @return this builder
     */
    public Builder threads(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + value);
      }
      this.threads = value;
      return this;
    }

    /**
     * When members are stored LZ4-compressed. Default {@link Compression#AUTO}.
     *
     * @param value the policy
     * @return this builder
     */
    public Builder compression(Compression value) {
      this.compression = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Receives progress of long work, from the merge threads. Default: none.
     *
     * @param value a thread-safe listener
     * @return this builder
     */
    public Builder progress(ProgressListener value) {
      this.progress = Objects.requireNonNull(value);
      return this;
    }

    /**
     * What {@link ArchiveWriter#addTree} does with symbolic links below a root. Default
     * {@link SymlinkPolicy#SKIP}.
     *
     * @param value the policy
     * @return this builder
     */
    public Builder symlinks(SymlinkPolicy value) {
      this.symlinks = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Local directory where the writer spills sorted runs of names and index records (about
     * 100 bytes per member, removed by commit or abort), so that its heap does not grow with
     * the number of members. Default: {@code java.io.tmpdir}.
     *
     * @param value a local directory
     * @return this builder
     */
    public Builder scratchDirectory(Path value) {
      this.scratchDirectory = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Generations whose files a commit keeps, the newest included: a reader opened on a
     * generation keeps working until this many newer ones are committed. Default 2.
     *
     * @param value at least 1
     * @return this builder
     */
    public Builder retainGenerations(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("at least the newest generation is kept: " + value);
      }
      this.retainGenerations = value;
      return this;
    }

    /**
     * Remove a lock left by a writer that died when opening. Only for a lock whose holder is
     * known to be dead (the lock's error names its host and process): two live writers on one
     * archive can lose data. Default false; deliberately not a configuration key.
     *
     * @param value whether to break a stale lock
     * @return this builder
     */
    public Builder breakLock(boolean value) {
      this.breakLock = value;
      return this;
    }

    /**
     * Whether a change goes ahead when it would leave users unable to read, through the
     * archive, files they could read before. The archive's directory gets access no broader
     * than every member's source allows (so nobody reads through it what they could not read);
     * when that takes owners' own files from them (an append may also take the members they
     * have in it), the change fails with {@link AccessLossException} unless this is true.
     * Default false. Deliberately without a configuration key: it is a decision per change.
     *
     * @param value whether to go ahead
     * @return this builder
     */
    public Builder allowAccessLoss(boolean value) {
      this.allowAccessLoss = value;
      return this;
    }

    /**
     * HDFS only: the storage policy of the part files a create or append merges, or null (the
     * default) for the archive directory's. {@value WriteSettings#LAZY_PERSIST} writes them to
     * the DataNodes' RAM disks first where a probe finds them, at the durability cost
     * docs/HDFS.md describes: "HDFS provides best-effort persistence guarantees for Lazy Persist
     * Writes. Rare data loss is possible in the event of a node restart before replicas are
     * persisted to disk." HDFS gives a client no signal that a replica has been persisted, so it
     * is opt-in, and compaction and recovery write the directory's policy.
     *
     * @param value an HDFS storage policy name (any case), or null or blank
     * @return this builder
     */
    public Builder partStoragePolicy(String value) {
      this.partStoragePolicy = value == null || value.isBlank() ? null
          : value.trim().toUpperCase(Locale.ROOT);
      return this;
    }

    /**
     * HDFS only: whether a commit pins the new generation's index files and manifest in the
     * DataNodes' memory with centralized cache directives. Default true.
     *
     * @param value whether to pin
     * @return this builder
     */
    public Builder pinIndex(boolean value) {
      this.pinIndex = value;
      return this;
    }

    /**
     * HDFS only: the cache pool of the directives. Default "hpf-{owner}":
     * {@link #CACHE_POOL_OWNER} stands for the owner of the archive's directory, so that each
     * owner's archives are pinned in a pool of their own (created, theirs and of mode 0700, where
     * the writer may create pools; see docs/SECURITY.md).
     *
     * @param value a pool name, with or without {@link #CACHE_POOL_OWNER}: not empty, without
     *     control characters or white space at either end (docs/HDFS.md)
     * @return this builder
     */
    public Builder cachePool(String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException("cache pool name must not be empty");
      }
      String problem = org.hpf.internal.hdfs.CachePoolName.problem(value);
      if (problem != null) {
        throw new IllegalArgumentException("cache pool name is not valid: " + problem);
      }
      this.cachePool = value;
      return this;
    }

    /**
     * HDFS only: how long a directive lives, or null (the default) for ever.
     *
     * @param value a positive duration, or null
     * @return this builder
     */
    public Builder cacheTtl(Duration value) {
      if (value != null && (value.isNegative() || value.isZero())) {
        throw new IllegalArgumentException("cache TTL must be positive: " + value);
      }
      this.cacheTtl = value;
      return this;
    }

    /**
     * HDFS only: cached replicas per block. Default 1.
     *
     * @param value at least 1
     * @return this builder
     */
    public Builder cacheReplication(int value) {
      if (value < 1 || value > Short.MAX_VALUE) {
        throw new IllegalArgumentException("bad cache replication " + value);
      }
      this.cacheReplication = value;
      return this;
    }

    /**
     * HDFS only: whether a missing cache pool is created (needs the HDFS superuser). Default
     * true.
     *
     * @param value whether to create the pool
     * @return this builder
     */
    public Builder createCachePool(boolean value) {
      this.createCachePool = value;
      return this;
    }

    /**
     * The owner, group and mode recorded for members added without their own. Default null:
     * {@link MemberAccess#defaultFor} the writer's configuration (the writing user, their
     * primary group, 0644 masked by {@code fs.permissions.umask-mode}).
     *
     * @param value the access, or null for the default
     * @return this builder
     */
    public Builder defaultAccess(MemberAccess value) {
      this.defaultAccess = value;
      return this;
    }

    /**
     * The settings.
     *
     * @return new settings
     */
    public WriteSettings build() {
      return new WriteSettings(this);
    }
  }
}
