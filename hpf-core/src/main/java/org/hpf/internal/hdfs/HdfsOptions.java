package org.hpf.internal.hdfs;

import java.time.Duration;
import java.util.Objects;

/**
 * How a writer uses HDFS features beyond plain files (docs/HDFS.md). Immutable; build with
 * {@link #builder()}. Used only when the archive's file system is a {@code DistributedFileSystem};
 * elsewhere it is ignored and the writer's {@link HdfsReport} says so.
 */
public final class HdfsOptions {
  /** The storage policy whose replicas the DataNodes write to memory (RAM_DISK) first. */
  public static final String LAZY_PERSIST = "LAZY_PERSIST";

  private static final HdfsOptions DEFAULTS = builder().build();

  private final String partStoragePolicy;
  private final boolean pinIndex;
  private final String cachePool;
  private final Duration cacheTtl;
  private final short cacheReplication;
  private final boolean createCachePool;

  private HdfsOptions(Builder b) {
    this.partStoragePolicy = b.partStoragePolicy;
    this.pinIndex = b.pinIndex;
    this.cachePool = b.cachePool;
    this.cacheTtl = b.cacheTtl;
    this.cacheReplication = b.cacheReplication;
    this.createCachePool = b.createCachePool;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The HDFS options {@code settings} give; IllegalArgumentException for invalid ones. */
  public static HdfsOptions of(org.hpf.WriteSettings settings) {
    return builder()
        .partStoragePolicy(settings.partStoragePolicy())
        .pinIndex(settings.pinIndex())
        .cachePool(settings.cachePool())
        .cacheTtl(settings.cacheTtl())
        .cacheReplication(settings.cacheReplication())
        .createCachePool(settings.createCachePool())
        .build();
  }

  public static HdfsOptions defaults() {
    return DEFAULTS;
  }

  /**
   * The storage policy of the part files hpf writes, or null (the default) for the policy the
   * archive directory has (HOT unless someone set another).
   *
   * <p>{@value #LAZY_PERSIST} is special: it applies only to the parts a create or append merges
   * (compaction and recovery write the directory's policy), and only when a probe finds that the
   * DataNodes place replicas in RAM_DISK; otherwise the parts get the directory's policy and the
   * report says why. HDFS on LazyPersist: "HDFS provides best-effort persistence guarantees for
   * Lazy Persist Writes. Rare data loss is possible in the event of a node restart before
   * replicas are persisted to disk. Applications can choose to use Lazy Persist Writes to trade
   * off some durability guarantees in favor of reduced latency." HDFS gives a client no signal
   * that a replica has been persisted, so a create or append that returned may still lose the
   * parts it wrote if their DataNodes restart before persisting them (with replication 1, one
   * restart suffices), and the NameNode then unlinks the part files, which leaves the archive
   * corrupt. Hence it is opt-in.
   */
  public String partStoragePolicy() {
    return partStoragePolicy;
  }

  /** True when merged parts are asked to be written with {@value #LAZY_PERSIST}. */
  public boolean lazyPersist() {
    return LAZY_PERSIST.equals(partStoragePolicy);
  }

  /**
   * Whether a commit pins the new generation's index files, directories and manifest in the
   * DataNodes' memory with centralized cache directives (and removes the directives of files the
   * generation no longer uses). Default true.
   */
  public boolean pinIndex() {
    return pinIndex;
  }

  /** The cache pool the directives go to. Default "hpf". */
  public String cachePool() {
    return cachePool;
  }

  /** How long a directive lives after it is added; null (default) for ever. */
  public Duration cacheTtl() {
    return cacheTtl;
  }

  /** Cached replicas per block. Default 1. */
  public short cacheReplication() {
    return cacheReplication;
  }

  /** Whether a missing cache pool is created (needs HDFS superuser). Default true. */
  public boolean createCachePool() {
    return createCachePool;
  }

  @Override
  public String toString() {
    return "HdfsOptions{partStoragePolicy=" + partStoragePolicy + ", pinIndex=" + pinIndex
        + ", cachePool=" + cachePool + ", cacheTtl=" + cacheTtl + ", cacheReplication="
        + cacheReplication + ", createCachePool=" + createCachePool + "}";
  }

  /** Single-use builder of {@link HdfsOptions}. */
  public static final class Builder {
    private String partStoragePolicy;
    private boolean pinIndex = true;
    private String cachePool = "hpf";
    private Duration cacheTtl;
    private short cacheReplication = 1;
    private boolean createCachePool = true;

    private Builder() {}

    /** See {@link HdfsOptions#partStoragePolicy()}; null for the directory's policy. */
    public Builder partStoragePolicy(String value) {
      this.partStoragePolicy = value == null || value.isBlank() ? null
          : value.trim().toUpperCase(java.util.Locale.ROOT);
      return this;
    }

    /** Shorthand for {@code partStoragePolicy(LAZY_PERSIST)} (or null when false). */
    public Builder lazyPersist(boolean value) {
      return partStoragePolicy(value ? LAZY_PERSIST : null);
    }

    public Builder pinIndex(boolean value) {
      this.pinIndex = value;
      return this;
    }

    public Builder cachePool(String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException("cache pool name must not be empty");
      }
      this.cachePool = value;
      return this;
    }

    /** Directives expire this long after they are added; null for never. */
    public Builder cacheTtl(Duration value) {
      if (value != null && (value.isNegative() || value.isZero())) {
        throw new IllegalArgumentException("cache TTL must be positive: " + value);
      }
      this.cacheTtl = value;
      return this;
    }

    public Builder cacheReplication(int value) {
      if (value < 1 || value > Short.MAX_VALUE) {
        throw new IllegalArgumentException("bad cache replication " + value);
      }
      this.cacheReplication = (short) value;
      return this;
    }

    public Builder createCachePool(boolean value) {
      this.createCachePool = value;
      return this;
    }

    public HdfsOptions build() {
      return new HdfsOptions(this);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HdfsOptions other
        && Objects.equals(partStoragePolicy, other.partStoragePolicy)
        && pinIndex == other.pinIndex && cachePool.equals(other.cachePool)
        && Objects.equals(cacheTtl, other.cacheTtl) && cacheReplication == other.cacheReplication
        && createCachePool == other.createCachePool;
  }

  @Override
  public int hashCode() {
    return Objects.hash(partStoragePolicy, pinIndex, cachePool, cacheTtl, cacheReplication,
        createCachePool);
  }
}
