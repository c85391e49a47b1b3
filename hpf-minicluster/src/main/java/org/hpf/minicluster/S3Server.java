package org.hpf.minicluster;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * A real S3-protocol server (Adobe S3Mock) for tests and benchmarks of s3a://: plain HTTP on
 * 127.0.0.1 at an ephemeral port, its objects under a temporary directory, one bucket. Start one
 * per test class (or benchmark run) and close it after.
 *
 * <p>It runs in a child JVM from its own executable jar (system property {@code
 * hpf.s3ServerJar}, set by the build for tests and by {@code bin/hpf-bench}): its Spring Boot,
 * Jackson, SLF4J 2 and AWS SDK would clash with Hadoop's on the caller's class path. A shell
 * between the two JVMs keeps a pipe from the caller's JVM open and stops the server when that
 * pipe closes, so the server goes away with the caller even when its JVM is killed.
 */
public final class S3Server implements Closeable {
  public static final String BUCKET = "hpf-test";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  /** Spring Boot's line once the connectors listen; the first port is the 127.0.0.1 one. */
  private static final Pattern STARTED = Pattern.compile("Tomcat started on ports? (\\d+)");
  /** Runs the server in the background and stops it once standard input reaches its end. */
  private static final String WATCHDOG =
      "\"$@\" & server=$!; cat > /dev/null; kill $server; wait $server";

  private static final String ACCESS_LOG_PREFIX = "requests";
  private static final String ACCESS_LOG_SUFFIX = ".log";

  private final Process watchdog;
  /** The server's objects, its log and the client's upload buffers. */
  private final Path directory;
  private final int port;
  private final long startMillis;
  /** See {@link #fileSystem()}. */
  private FileSystem fileSystem;
  /** Buckets {@link #bucket} created. */
  private final java.util.Set<String> buckets = new java.util.HashSet<>();

  private S3Server(Process watchdog, Path directory, int port, long startMillis) {
    this.watchdog = watchdog;
    this.directory = directory;
    this.port = port;
    this.startMillis = startMillis;
  }

  private static S3Server shared;

  /**
   * The server of this JVM, started on first use and stopped when the JVM exits: test classes
   * share it, as they share a MiniDFSCluster, since starting one takes seconds. Each class
   * keeps to keys of its own; none closes it.
   */
  public static synchronized S3Server shared() throws IOException {
    if (shared == null) {
      S3Server started = start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          started.close();
        } catch (IOException e) {
          // the watchdog stops the server when this JVM's pipe closes anyway
        }
      }, "s3-server-stop"));
      shared = started;
    }
    return shared;
  }

  /** Starts a server with an empty {@link #BUCKET} and waits until it listens. */
  public static S3Server start() throws IOException {
    long begin = System.nanoTime();
    String jar = serverJar();
    Path directory = Files.createTempDirectory("s3-server");
    Path log = directory.resolve("server.log");
    List<String> command = new ArrayList<>(List.of("sh", "-c", WATCHDOG, "s3-server"));
    command.addAll(serverCommand(jar, directory));
    Process watchdog = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    try {
      int port = awaitPort(watchdog, log);
      return new S3Server(watchdog, directory, port, (System.nanoTime() - begin) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      stop(watchdog);
      throw e;
    }
  }

  private static String serverJar() {
    String jar = System.getProperty("hpf.s3ServerJar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException("No S3 server jar at hpf.s3ServerJar=" + jar
          + ": the build copies it into target/s3-server/ of hpf-core, hpf-cli and hpf-bench"
          + " (mvn generate-test-resources)");
    }
    return jar;
  }

  private static List<String> serverCommand(String jar, Path directory) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // A short-lived test server: start fast, stay small.
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + directory,
        "-jar", jar,
        "--server.address=127.0.0.1",
        "--server.port=0",
        "--server.ssl.enabled=false",
        // S3Mock always opens a second, plain HTTP connector and binds it to every interface,
        // and may open S3 Vectors ones: ephemeral ports keep them out of the way. The tests
        // use the first connector only.
        "--com.adobe.testing.s3mock.httpPort=0",
        "--com.adobe.testing.s3mock.vectors.httpPort=0",
        "--com.adobe.testing.s3mock.vectors.httpsPort=0",
        "--com.adobe.testing.s3mock.store.root=" + directory.resolve("store"),
        "--com.adobe.testing.s3mock.store.initialBuckets=" + BUCKET,
        // S3Mock checks If-None-Match, then writes, holding nothing between: two requests at
        // once could both pass the check, where S3 lets exactly one. One request at a time
        // makes each conditional create decide as S3's does.
        "--server.tomcat.threads.max=1",
        // Every request it answers, one line each ("GET /bucket/key?query 200"), for the
        // requests an operation costs as the server sees them (requests()).
        "--server.tomcat.accesslog.enabled=true",
        "--server.tomcat.accesslog.directory=" + directory,
        "--server.tomcat.accesslog.prefix=" + ACCESS_LOG_PREFIX,
        "--server.tomcat.accesslog.suffix=" + ACCESS_LOG_SUFFIX,
        "--server.tomcat.accesslog.rotate=false",
        "--server.tomcat.accesslog.buffered=false",
        "--server.tomcat.accesslog.pattern=%m %U%q %s",
        "--spring.main.banner-mode=off",
        "--logging.level.root=WARN",
        "--logging.level.org.springframework.boot.tomcat.TomcatWebServer=INFO");
  }

  private static int awaitPort(Process watchdog, Path log) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher started = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
      if (started.find()) {
        return Integer.parseInt(started.group(1));
      }
      if (!watchdog.isAlive()) {
        throw new IOException("S3 server exited: " + Files.readString(log));
      }
      sleep(50);
    }
    throw new IOException("S3 server not listening after " + START_TIMEOUT + ": "
        + Files.readString(log));
  }

  /**
   * The requests the server has answered, oldest first, each as {@code METHOD /path?query
   * status}. The line of a request is written once its answer is sent: with one request thread,
   * every request before the last one answered is in the list.
   */
  public List<String> requests() throws IOException {
    Path log = directory.resolve(ACCESS_LOG_PREFIX + ACCESS_LOG_SUFFIX);
    return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
  }

  /** How long {@link #start} took, until the server listened. */
  public long startMillis() {
    return startMillis;
  }

  public int port() {
    return port;
  }

  /** The root of {@link #BUCKET}: {@code s3a://hpf-test/}. */
  public org.apache.hadoop.fs.Path bucketRoot() {
    return new org.apache.hadoop.fs.Path("s3a://" + BUCKET + "/");
  }

  /**
   * Settings for s3a:// on this server: its endpoint, path-style requests, static credentials,
   * no TLS, a fixed region. With the region and the credentials given, S3A asks AWS for
   * neither (no region lookup, no instance metadata).
   */
  public Configuration configuration() {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + port);
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", false);
    conf.set("fs.s3a.aws.credentials.provider",
        "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.set("fs.s3a.access.key", "test-access-key");
    conf.set("fs.s3a.secret.key", "test-secret-key");
    // Blocks waiting for upload next to the server's files, not in /tmp/hadoop-<user>.
    conf.set("fs.s3a.buffer.dir", directory.resolve("client-buffer").toString());
    // No probe for the bucket when the file system starts.
    conf.setInt("fs.s3a.bucket.probe", 0);
    // A refused connection fails a test at once rather than after minutes of retries.
    conf.setInt("fs.s3a.attempts.maximum", 1);
    conf.setInt("fs.s3a.retry.limit", 1);
    return conf;
  }

  /**
   * The root of bucket {@code name}, created on first use. Hadoop caches one client per bucket,
   * made with the settings of whoever asked first: a test class whose client needs settings of
   * its own (another input stream, say) gets them deterministically in a bucket of its own.
   */
  public synchronized org.apache.hadoop.fs.Path bucket(String name) throws IOException {
    if (buckets.add(name)) {
      ((S3AFileSystem) fileSystem()).getS3AInternals().getAmazonS3Client("a test bucket")
          .createBucket(request -> request.bucket(name));
    }
    return new org.apache.hadoop.fs.Path("s3a://" + name + "/");
  }

  /** A client of this server's bucket, its own (not Hadoop's cached one); closed with it. */
  public synchronized FileSystem fileSystem() throws IOException {
    if (fileSystem == null) {
      fileSystem = FileSystem.newInstance(bucketRoot().toUri(), configuration());
    }
    return fileSystem;
  }

  /** Stops the server and deletes its objects. */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (fileSystem != null) {
        fileSystem.close();
      }
    }
    stop(watchdog);
    FileUtil.fullyDelete(directory.toFile());
  }

  private static void stop(Process watchdog) throws IOException {
    try (OutputStream pipe = watchdog.getOutputStream()) {
      // Closing it ends the watchdog's cat: it stops the server and waits for it.
    }
    try {
      if (!watchdog.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        watchdog.descendants().forEach(ProcessHandle::destroyForcibly);
        watchdog.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      watchdog.descendants().forEach(ProcessHandle::destroyForcibly);
      watchdog.destroyForcibly();
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the S3 server started", e);
    }
  }
}
