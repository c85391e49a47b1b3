package org.hpf.bench.systems;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.DatasetGenerator.Dataset;

/**
 * One way of storing the dataset on the cluster: HPF, HAR, MapFile, SequenceFile or plain HDFS.
 * A system creates its store of the first N files of the dataset from the local copy, and opens
 * readers on it that return a member's bytes by name.
 */
public interface BenchSystem {
  /** Short name used in tables, charts and the JSON. */
  String name();

  /**
   * Stores the first {@code n} members of {@code data} below {@code dest} (which does not
   * exist yet) and returns how long it took.
   */
  Creation create(Dataset data, int n, Path dest) throws IOException;

  /**
   * The path whose subtree the NameNode holds for this system's store at {@code dest} (HAR's
   * archive, not the uploaded sources it was made from).
   */
  default Path storeOf(Path dest) {
    return dest;
  }

  /**
   * A reader of the store at {@code dest} through {@code fs}. A warm reader is opened once and
   * used for many gets; a cold get opens one on a new client and closes it after one get.
   */
  Reader open(FileSystem fs, Path dest) throws IOException;

  /** Clears process-wide caches the system keeps outside its readers (HAR's metadata cache). */
  default void clearGlobalCaches() {}

  /** Returns members' bytes by name. */
  interface Reader extends Closeable {
    byte[] get(String name) throws IOException;

    /** Nothing to release by default. */
    @Override
    default void close() throws IOException {}
  }

  /** The time a creation took, and system-specific parts of it (e.g. upload, job, merge). */
  record Creation(long millis, Map<String, Object> details) {}
}
