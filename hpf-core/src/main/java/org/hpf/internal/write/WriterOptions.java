package org.hpf.internal.write;

import org.hpf.Compression;
import org.hpf.MemberAccess;
import org.hpf.ProgressListener;
import org.hpf.SymlinkPolicy;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.NameHasher;
import org.hpf.internal.hdfs.HdfsOptions;

/**
 * How an archive is written. Immutable; build with {@link #builder()}. Zero for block size,
 * replication or bucket capacity means "derive a default" (see each getter).
 */
public final class WriterOptions {
  /** Members up to this size are read into memory and may be compressed; larger ones stream raw. */
  public static final int COMPRESS_LIMIT = 16 << 20;

  private final int threads;
  private final long partSize;
  private final long blockSize;
  private final short replication;
  private final int bucketCapacity;
  private final Compression compression;
  private final int journalBatchFiles;
  private final long journalBatchBytes;
  private final ProgressListener progress;
  private final NameHasher hasher;
  private final ArchiveId archiveId;
  private final int retainGenerations;
  private final boolean breakLock;
  private final boolean allowAccessLoss;
  private final HdfsOptions hdfs;
  private final java.nio.file.Path scratchDirectory;
  private final boolean checkNesting;
  private final SymlinkPolicy symlinks;
  private final MemberAccess defaultAccess;
  private final String owner;

  private WriterOptions(Builder b) {
    this.owner = b.owner;
    this.checkNesting = b.checkNesting;
    this.symlinks = b.symlinks;
    this.defaultAccess = b.defaultAccess;
    this.scratchDirectory = b.scratchDirectory;
    this.hdfs = b.hdfs;
    this.retainGenerations = b.retainGenerations;
    this.breakLock = b.breakLock;
    this.allowAccessLoss = b.allowAccessLoss;
    this.threads = b.threads;
    this.partSize = b.partSize;
    this.blockSize = b.blockSize;
    this.replication = b.replication;
    this.bucketCapacity = b.bucketCapacity;
    this.compression = b.compression;
    this.journalBatchFiles = b.journalBatchFiles;
    this.journalBatchBytes = b.journalBatchBytes;
    this.progress = b.progress;
    this.hasher = b.hasher;
    this.archiveId = b.archiveId;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding a public layout and writer settings (test hooks at their defaults). */
  public static Builder builder(org.hpf.ArchiveSettings layout, org.hpf.WriteSettings settings) {
    return builder()
        .partSize(layout.partSize())
        .bucketCapacity(layout.bucketCapacity())
        .blockSize(layout.blockSize())
        .replication(layout.replication())
        .threads(settings.threads())
        .compression(settings.compression())
        .progress(settings.progress())
        .symlinks(settings.symlinks())
        .defaultAccess(settings.defaultAccess().orElse(null))
        .scratchDirectory(settings.scratchDirectory())
        .retainGenerations(settings.retainGenerations())
        .breakLock(settings.breakLock())
        .allowAccessLoss(settings.allowAccessLoss())
        .hdfs(HdfsOptions.of(settings));
  }

  public static WriterOptions defaults() {
    return builder().build();
  }

  /** False only in tests that need names a writer refuses (see {@link NestingCheck}). */
  boolean checkNesting() {
    return checkNesting;
  }

  /** Merge threads, each writing its own part file. Default: cores, at least 2. */
  public int threads() {
    return threads;
  }

  /** Size at which a part file rolls over to the next. Default 1 GiB. */
  public long partSize() {
    return partSize;
  }

  /**
   * Block size of part and index files; 0 = the storage's default (on HDFS the cluster's
   * {@code dfs.blocksize} kept between partSize/8 and partSize/2: docs/HDFS.md).
   */
  public long blockSize() {
    return blockSize;
  }

  /** Replication of the archive's files; 0 = the file system's default. */
  public short replication() {
    return replication;
  }

  /**
   * Most records per bucket; 0 = 65,536 ({@link ArchiveCreator#DEFAULT_BUCKET_CAPACITY}), or as
   * many as fit one block if fewer ({@code IndexFileWriter#capacityFor}). A writer holds about
   * 100 bytes per record of a bucket for each thread while it indexes.
   */
  public int bucketCapacity() {
    return bucketCapacity;
  }

  public Compression compression() {
    return compression;
  }

  /** A merge thread flushes its part and journals its records after this many members... */
  public int journalBatchFiles() {
    return journalBatchFiles;
  }

  /** ...or after this many bytes, whichever comes first. */
  public long journalBatchBytes() {
    return journalBatchBytes;
  }

  public ProgressListener progress() {
    return progress;
  }

  /** The hasher a test set, or null: then each archive's own (see {@link #hasher(int)}). */
  public NameHasher hasher() {
    return hasher;
  }

  /** The hasher for names of an archive whose hash algorithm is {@code algorithm}. */
  public NameHasher hasher(int algorithm) {
    return hasher != null ? hasher : NameHasher.forAlgorithm(algorithm);
  }

  /** The hash algorithm of an archive created with these options. */
  public int newArchiveAlgorithm() {
    return hasher != null ? hasher.algorithm() : NameHasher.DEFAULT.algorithm();
  }

  /** A fixed archive id (tests); null = random. */
  public ArchiveId archiveId() {
    return archiveId;
  }

  /**
   * Generations whose files a commit keeps (the newest included): a reader opened on a
   * generation keeps working until this many newer generations are committed. Default 2.
   */
  public int retainGenerations() {
    return retainGenerations;
  }

  /** Whether opening a writer removes a lock left by a writer that died. Default false. */
  public boolean breakLock() {
    return breakLock;
  }

  /** Whether a change goes ahead when its archive would take access from users. */
  public boolean allowAccessLoss() {
    return allowAccessLoss;
  }

  /** Storage policy of parts, LazyPersist, cache pinning: used only on HDFS (docs/HDFS.md). */
  public HdfsOptions hdfs() {
    return hdfs;
  }

  /**
   * Local directory where the writer spills sorted runs of names and index records, so that its
   * heap does not grow with the number of members (about 100 bytes per member, removed when the
   * writer commits or aborts). Default: {@code java.io.tmpdir}.
   */
  public java.nio.file.Path scratchDirectory() {
    return scratchDirectory;
  }

  /** Single-use builder of {@link WriterOptions}. */
  /** What walking source trees does with symbolic links (default {@link SymlinkPolicy#SKIP}). */
  public SymlinkPolicy symlinks() {
    return symlinks;
  }

  /** What members added without their own access record, or null for the writing user's. */
  public MemberAccess defaultAccess() {
    return defaultAccess;
  }

  /**
   * The user the archive is made for, or null: only sources this user owns are added, and who
   * may read the archive is decided as if it were theirs (the caller gives it to them once it
   * is written: see {@code org.hpf.internal.admin.OwnerSplit}).
   */
  public String owner() {
    return owner;
  }

  /** True when a walked source is one this writer adds (see {@link #owner()}). */
  boolean includes(Source source) {
    return owner == null || (source.access() != null && owner.equals(source.access().owner()));
  }

  public static final class Builder {
    private int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private long partSize = 1L << 30;
    private long blockSize;
    private short replication;
    private int bucketCapacity;
    private Compression compression = Compression.AUTO;
    private int journalBatchFiles = 512;
    private long journalBatchBytes = 8L << 20;
    private ProgressListener progress = ProgressListener.NONE;
    private NameHasher hasher;
    private ArchiveId archiveId;
    private int retainGenerations = 2;
    private boolean breakLock;
    private boolean allowAccessLoss;
    private HdfsOptions hdfs = HdfsOptions.defaults();
    private java.nio.file.Path scratchDirectory =
        org.hpf.internal.write.spill.Scratch.defaultDirectory();
    private boolean checkNesting = true;
    private SymlinkPolicy symlinks = SymlinkPolicy.SKIP;
    private MemberAccess defaultAccess;
    private String owner;

    /** Only sources of {@code value}, for an archive that becomes theirs (see {@link #owner()}). */
    public Builder owner(String value) {
      this.owner = value;
      return this;
    }

    /** The access of members added without one (null: the writing user's). */
    public Builder defaultAccess(MemberAccess value) {
      this.defaultAccess = value;
      return this;
    }

    /** What walking source trees does with symbolic links. */
    public Builder symlinks(SymlinkPolicy value) {
      this.symlinks = java.util.Objects.requireNonNull(value);
      return this;
    }

    /** Local directory for the writer's sorted runs (see {@link #scratchDirectory()}). */
    public Builder scratchDirectory(java.nio.file.Path value) {
      this.scratchDirectory = java.util.Objects.requireNonNull(value);
      return this;
    }

    /** How the writer uses HDFS features; ignored on other file systems. */
    public Builder hdfs(HdfsOptions value) {
      this.hdfs = java.util.Objects.requireNonNull(value);
      return this;
    }

    public Builder retainGenerations(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("at least the newest generation is kept: " + value);
      }
      this.retainGenerations = value;
      return this;
    }

    /** Go ahead with a change that takes users' access to their own files from them. */
    public Builder allowAccessLoss(boolean value) {
      this.allowAccessLoss = value;
      return this;
    }

    /**
     * Remove a stale {@code _lock} when opening a writer. Only for a lock whose holder is known
     * to be dead (its host and pid are in the lock and in the error): two live writers on one
     * archive can lose data.
     */
    public Builder breakLock(boolean value) {
      this.breakLock = value;
      return this;
    }

    public Builder threads(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + value);
      }
      this.threads = value;
      return this;
    }

    public Builder partSize(long value) {
      if (value < 1) {
        throw new IllegalArgumentException("part size must be positive: " + value);
      }
      if (value > org.hpf.internal.format.IndexRecord.MAX_OFFSET + 1) {
        // Entries start below the part size, and a record holds offsets below 2^40.
        throw new IllegalArgumentException("part size " + value + " is above 1 TiB, the"
            + " format's limit");
      }
      this.partSize = value;
      return this;
    }

    public Builder blockSize(long value) {
      if (value < 0 || value % 512 != 0) {
        throw new IllegalArgumentException("block size must be a multiple of 512: " + value);
      }
      this.blockSize = value;
      return this;
    }

    public Builder replication(int value) {
      if (value < 0 || value > Short.MAX_VALUE) {
        throw new IllegalArgumentException("bad replication " + value);
      }
      this.replication = (short) value;
      return this;
    }

    public Builder bucketCapacity(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("bucket capacity must not be negative: " + value);
      }
      this.bucketCapacity = value;
      return this;
    }

    public Builder compression(Compression value) {
      this.compression = java.util.Objects.requireNonNull(value);
      return this;
    }

    public Builder journalBatch(int files, long bytes) {
      if (files < 1 || bytes < 1) {
        throw new IllegalArgumentException("journal batch must be positive");
      }
      this.journalBatchFiles = files;
      this.journalBatchBytes = bytes;
      return this;
    }

    public Builder progress(ProgressListener value) {
      this.progress = java.util.Objects.requireNonNull(value);
      return this;
    }

    /**
     * Testing only: hash names with {@code value} instead of the archive's algorithm; readers
     * must be given the same hasher.
     */
    public Builder hasher(NameHasher value) {
      this.hasher = java.util.Objects.requireNonNull(value);
      return this;
    }

    /**
     * Testing only (package-private): store names that are a file and a directory at once, as
     * writers did before they checked, to test readers on such archives.
     */
    Builder skipNestingCheck() {
      this.checkNesting = false;
      return this;
    }

    /** Testing only: a fixed archive id instead of a random one. */
    public Builder archiveId(ArchiveId value) {
      this.archiveId = value;
      return this;
    }

    public WriterOptions build() {
      return new WriterOptions(this);
    }
  }
}
