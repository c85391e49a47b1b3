package org.hpf.internal.write;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.hpf.ArchiveSettings;
import org.hpf.WriteSettings;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.NameHasher;

/**
 * What the engine's writers are given: the public layout of a new archive
 * ({@link ArchiveSettings}) and the public settings of a writer ({@link WriteSettings}), each
 * setting defined and checked there once, plus what only the engine sets: the owner an
 * administrator's split writes for, and hooks for tests. Immutable; build with
 * {@link #builder()}.
 */
public final class WriterOptions {
  /** Members up to this size are read into memory and may be compressed; larger ones stream raw. */
  public static final int COMPRESS_LIMIT = 16 << 20;

  private static final WriterOptions DEFAULTS = builder().build();

  private final ArchiveSettings layout;
  private final WriteSettings settings;
  private final String owner;
  private final int journalBatchFiles;
  private final long journalBatchBytes;
  private final NameHasher hasher;
  private final ArchiveId archiveId;
  private final boolean checkNesting;
  private final String operation;

  private WriterOptions(Builder b) {
    this.layout = b.layout;
    this.settings = b.settings.build();
    this.owner = b.owner;
    this.journalBatchFiles = b.journalBatchFiles;
    this.journalBatchBytes = b.journalBatchBytes;
    this.hasher = b.hasher;
    this.archiveId = b.archiveId;
    this.checkNesting = b.checkNesting;
    this.operation = b.operation;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding a public layout and writer settings (hooks at their defaults). */
  public static Builder builder(ArchiveSettings layout, WriteSettings settings) {
    return builder().layout(layout).settings(settings);
  }

  /** The options of a public layout and writer settings. */
  public static WriterOptions of(ArchiveSettings layout, WriteSettings settings) {
    return builder(layout, settings).build();
  }

  public static WriterOptions defaults() {
    return DEFAULTS;
  }

  /** The layout a create gives the archive (an append reads it from the archive instead). */
  public ArchiveSettings layout() {
    return layout;
  }

  /** How the writer works: threads, compression, progress, access, HDFS features. */
  public WriteSettings settings() {
    return settings;
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

  /** A merge thread flushes its part and journals its records after this many members... */
  public int journalBatchFiles() {
    return journalBatchFiles;
  }

  /** ...or after this many bytes, whichever comes first. */
  public long journalBatchBytes() {
    return journalBatchBytes;
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

  /** False only in tests that need names a writer refuses (see {@link NestingCheck}). */
  boolean checkNesting() {
    return checkNesting;
  }

  /**
   * What a writer opened on an existing archive is for ({@code append}, {@code rm}, ...): its
   * lock names it, and so does the error of a second writer the lock keeps out.
   */
  public String operation() {
    return operation;
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    Builder b = builder(layout, settings);
    b.owner = owner;
    b.journalBatchFiles = journalBatchFiles;
    b.journalBatchBytes = journalBatchBytes;
    b.hasher = hasher;
    b.archiveId = archiveId;
    b.checkNesting = checkNesting;
    b.operation = operation;
    return b;
  }

  /** Builder of {@link WriterOptions}; it may build several, each with what it held then. */
  public static final class Builder {
    private ArchiveSettings layout = ArchiveSettings.defaults();
    private WriteSettings.Builder settings = WriteSettings.builder();
    private String owner;
    private int journalBatchFiles = 512;
    private long journalBatchBytes = 8L << 20;
    private NameHasher hasher;
    private ArchiveId archiveId;
    private boolean checkNesting = true;
    private String operation = "change";

    private Builder() {}

    /** What the writer is for, as its lock names it (default {@code change}; see above). */
    public Builder operation(String value) {
      if (value == null || value.isBlank() || value.contains(" by ")) {
        throw new IllegalArgumentException("operation must be a name, not '" + value + "'");
      }
      this.operation = value;
      return this;
    }

    public Builder layout(ArchiveSettings value) {
      this.layout = Objects.requireNonNull(value);
      return this;
    }

    /** Changes the layout: {@code change} returns it changed (e.g. {@code l -> l.withPartSize}). */
    public Builder layout(UnaryOperator<ArchiveSettings> change) {
      return layout(change.apply(layout));
    }

    public Builder settings(WriteSettings value) {
      this.settings = value.toBuilder();
      return this;
    }

    /** Changes the writer settings: {@code change} sets what it changes on their builder. */
    public Builder settings(Consumer<WriteSettings.Builder> change) {
      change.accept(settings);
      return this;
    }

    /** Only sources of {@code value}, for an archive that becomes theirs (see {@link #owner()}). */
    public Builder owner(String value) {
      this.owner = value;
      return this;
    }

    /** How often merge threads journal (tests force many small batches). */
    public Builder journalBatch(int files, long bytes) {
      if (files < 1 || bytes < 1) {
        throw new IllegalArgumentException("journal batch must be positive");
      }
      this.journalBatchFiles = files;
      this.journalBatchBytes = bytes;
      return this;
    }

    /**
     * Testing only: hash names with {@code value} instead of the archive's algorithm; readers
     * must be given the same hasher.
     */
    public Builder hasher(NameHasher value) {
      this.hasher = Objects.requireNonNull(value);
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
