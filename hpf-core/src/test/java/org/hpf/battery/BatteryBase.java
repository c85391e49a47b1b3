package org.hpf.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.testing.MemoryTempDirs;
import org.hpf.testing.MiniDfs;
import org.hpf.minicluster.S3Server;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the batteries share: where a test's archives go (a {@link Place}: the local file system,
 * the shared MiniDFSCluster or the shared S3 server), a local folder for sources, and a random
 * source seeded per test by {@link Seeds} ({@code -Dhpf.test.seed=N} replays a failing run).
 */
abstract class BatteryBase {
  /** A local folder for sources (on every place: sources may be on any file system). */
  @TempDir(factory = MemoryTempDirs.class) protected java.nio.file.Path tmp;

  private final Place place;
  private final String seedLabel;
  /** This test's random source (also {@link #random()}). */
  protected Random random;
  private Path archiveRoot;

  /** {@code seedLabel} prefixes the name each test's seed is derived from. */
  BatteryBase(Place place, String seedLabel) {
    this.place = place;
    this.seedLabel = seedLabel;
  }

  /** The file system the archives are on. */
  interface Place {
    Configuration conf() throws IOException;

    /** A fresh directory for one test's archives. */
    Path newArchiveRoot(java.nio.file.Path tmp, String testName) throws IOException;

    /**
     * True on the MiniDFSCluster and the S3 server: tests use fewer and smaller files there
     * (writes are slow).
     */
    boolean slowWrites();

    /** How the tests' readers read here. */
    default ReaderOptions readerOptions() {
      return ReaderOptions.defaults();
    }
  }

  /** Archives under the test's temporary folder. */
  static Place local() {
    Configuration conf = new Configuration();
    return new Place() {
      @Override
      public Configuration conf() {
        return conf;
      }

      @Override
      public Path newArchiveRoot(java.nio.file.Path tmp, String testName) throws IOException {
        java.nio.file.Path dir = tmp.resolve("archives");
        Files.createDirectories(dir);
        return new Path(dir.toUri());
      }

      @Override
      public boolean slowWrites() {
        return false;
      }
    };
  }

  /** Archives on the shared MiniDFSCluster, under {@code /<dir>/<test>-<random>}. */
  static Place hdfs(String dir) {
    return new Place() {
      @Override
      public Configuration conf() throws IOException {
        return MiniDfs.shared().configuration();
      }

      @Override
      public Path newArchiveRoot(java.nio.file.Path tmp, String testName) throws IOException {
        FileSystem fs = MiniDfs.shared().fileSystem();
        Path root = fs.makeQualified(new Path("/" + dir + "/" + uniqueName(testName)));
        fs.mkdirs(root);
        return root;
      }

      @Override
      public boolean slowWrites() {
        return true;
      }
    };
  }

  /**
   * Archives on the shared S3-protocol server (s3a://, committed by conditional create), under
   * {@code <dir>/<test>-<random>} of a bucket read with the S3A input stream {@code
   * inputStream} ({@code fs.s3a.input.stream.type}: "classic", "analytics"), that bucket's only.
   */
  static Place s3(String dir, String inputStream) {
    return new Place() {
      private Configuration conf;

      @Override
      public synchronized Configuration conf() throws IOException {
        if (conf == null) {
          conf = S3Server.shared().configuration();
          conf.set("fs.s3a.input.stream.type", inputStream);
        }
        return conf;
      }

      @Override
      public Path newArchiveRoot(java.nio.file.Path tmp, String testName) throws IOException {
        // No directory to make: a key's prefix is its directory.
        return new Path(S3Server.shared().bucket("hpf-" + inputStream + "-stream"),
            dir + "/" + uniqueName(testName));
      }

      @Override
      public boolean slowWrites() {
        return true;
      }

      /**
       * Each index read is a request, which the server takes milliseconds to answer: the
       * exists, get, open and stat of one member look its record up once, as a reader on an
       * object store is best set up ({@code hpf.read.record.cache.bytes}). The first lookup of
       * each member by each reader still reads the index file.
       */
      @Override
      public ReaderOptions readerOptions() {
        return ReaderOptions.defaults().withRecordCacheBytes(4 << 20);
      }
    };
  }

  /**
   * Local file names are decoded with {@code sun.jnu.encoding}, which follows the locale: under
   * LANG=C the JVM cannot even create the non-ASCII source files these tests use.
   */
  @BeforeAll
  static void requireUtf8FileNames() {
    assertEquals("UTF-8", System.getProperty("sun.jnu.encoding"), "the battery needs a UTF-8 "
        + "locale for local file names: run with LANG=C.UTF-8 (or any UTF-8 locale)");
  }

  @BeforeEach
  void setUpBattery(TestInfo info) throws IOException {
    String method = info.getTestMethod().map(m -> m.getName()).orElse("test");
    random = Seeds.random(seedLabel + method + " " + info.getDisplayName());
    archiveRoot = place.newArchiveRoot(tmp, method);
  }

  /** A fresh reader of {@code archive}, set up as {@link Place#readerOptions} says. */
  protected HpfReader open(Path archive) throws IOException {
    return HpfReader.open(archive.getFileSystem(conf()), archive, place.readerOptions());
  }

  /** The configuration that names the archive's file system. */
  protected Configuration conf() throws IOException {
    return place.conf();
  }

  /**
   * {@code local} on the local file system, {@code slow} where writes are slow (the
   * MiniDFSCluster, the S3 server).
   */
  protected int pick(int local, int slow) {
    return place.slowWrites() ? slow : local;
  }

  protected Random random() {
    return random;
  }

  /** This test's directory for archives. */
  protected Path archiveRoot() {
    return archiveRoot;
  }

  protected FileSystem archiveFs() throws IOException {
    return archiveRoot.getFileSystem(conf());
  }

  /** {@code prefix} and a short random suffix: a name no other test run uses. */
  protected static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
