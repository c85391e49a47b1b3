package org.hpf;

import org.apache.hadoop.conf.Configuration;

/**
 * The layout of a new archive, fixed when it is created: later writers read it from the
 * archive. Zero means "derive a default" (see each component).
 *
 * @param partSize size at which a part file rolls over to the next; default 1 GiB, at most
 *     1 TiB ({@value #PART_SIZE_KEY})
 * @param bucketCapacity most index records per bucket; 0: 65,536, or as many as fit one block
 *     if fewer ({@value #BUCKET_CAPACITY_KEY})
 * @param blockSize block size of part and index files, a multiple of 512; 0: the file
 *     system's default, on HDFS kept between partSize/8 and partSize/2
 *     ({@value #BLOCK_SIZE_KEY})
 * @param replication replication of the archive's files; 0: the file system's default
 *     ({@value #REPLICATION_KEY})
 */
public record ArchiveSettings(long partSize, int bucketCapacity, long blockSize,
    int replication) {
  /** Configuration key of {@link #partSize()}, in bytes ({@code 1g} style suffixes allowed). */
  public static final String PART_SIZE_KEY = "hpf.archive.part.size";
  /** Configuration key of {@link #bucketCapacity()}. */
  public static final String BUCKET_CAPACITY_KEY = "hpf.archive.bucket.capacity";
  /** Configuration key of {@link #blockSize()}, in bytes ({@code 128m} style allowed). */
  public static final String BLOCK_SIZE_KEY = "hpf.archive.block.size";
  /** Configuration key of {@link #replication()}. */
  public static final String REPLICATION_KEY = "hpf.archive.replication";

  private static final long DEFAULT_PART_SIZE = 1L << 30;
  /** The largest part size: 1 TiB, since an index record holds offsets below 2^40. */
  private static final long MAX_PART_SIZE = 1L << 40;

  /**
   * Checks the components.
   *
   * @param partSize the part size
   * @param bucketCapacity most records per bucket, 0 for the default
   * @param blockSize the block size, 0 for the default
   * @param replication the replication, 0 for the default
   * @throws IllegalArgumentException if one is out of range
   */
  public ArchiveSettings {
    if (partSize < 1) {
      throw new IllegalArgumentException("part size must be positive: " + partSize);
    }
    if (partSize > MAX_PART_SIZE) {
      // Entries start below the part size, and an index record holds offsets below 2^40.
      throw new IllegalArgumentException("part size " + partSize + " is above 1 TiB, the"
          + " format's limit");
    }
    if (bucketCapacity < 0) {
      throw new IllegalArgumentException("bucket capacity must not be negative: "
          + bucketCapacity);
    }
    if (blockSize < 0 || blockSize % 512 != 0) {
      throw new IllegalArgumentException("block size must be a multiple of 512: " + blockSize);
    }
    if (replication < 0 || replication > Short.MAX_VALUE) {
      throw new IllegalArgumentException("bad replication " + replication);
    }
  }

  /**
   * The defaults: 1 GiB parts, other components derived.
   *
   * @return the default layout
   */
  public static ArchiveSettings defaults() {
    return new ArchiveSettings(DEFAULT_PART_SIZE, 0, 0, 0);
  }

  /**
   * The layout the {@code hpf.archive.*} keys of {@code conf} give, defaults for keys not set.
   *
   * @param conf the configuration to read
   * @return the layout
   * @throws IllegalArgumentException if a value is out of range
   */
  public static ArchiveSettings from(Configuration conf) {
    return new ArchiveSettings(conf.getLongBytes(PART_SIZE_KEY, DEFAULT_PART_SIZE),
        conf.getInt(BUCKET_CAPACITY_KEY, 0), conf.getLongBytes(BLOCK_SIZE_KEY, 0),
        conf.getInt(REPLICATION_KEY, 0));
  }

  /**
   * This layout with another part size.
   *
   * @param bytes the part size
   * @return a new layout
   */
  public ArchiveSettings withPartSize(long bytes) {
    return new ArchiveSettings(bytes, bucketCapacity, blockSize, replication);
  }

  /**
   * This layout with another bucket capacity.
   *
   * @param records most records per bucket (0 for the default)
   * @return a new layout
   */
  public ArchiveSettings withBucketCapacity(int records) {
    return new ArchiveSettings(partSize, records, blockSize, replication);
  }

  /**
   * This layout with another block size.
   *
   * @param bytes the block size (0 for the default)
   * @return a new layout
   */
  public ArchiveSettings withBlockSize(long bytes) {
    return new ArchiveSettings(partSize, bucketCapacity, bytes, replication);
  }

  /**
   * This layout with another replication.
   *
   * @param replicas replicas of each block (0 for the default)
   * @return a new layout
   */
  public ArchiveSettings withReplication(int replicas) {
    return new ArchiveSettings(partSize, bucketCapacity, blockSize, replicas);
  }
}
