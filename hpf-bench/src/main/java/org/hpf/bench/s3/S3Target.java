package org.hpf.bench.s3;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.minicluster.S3Server;

/**
 * Where {@code hpf-bench s3} runs: a directory of its own on the bucket of {@code --fs}, or on
 * an S3-protocol server it starts on 127.0.0.1. Closing it deletes that directory (unless
 * {@code --keep}) or stops the server.
 */
final class S3Target implements Closeable {
  private final S3Server server;
  private final Configuration conf;
  private final Path root;
  private final boolean keep;

  private S3Target(S3Server server, Configuration conf, Path root, boolean keep) {
    this.server = server;
    this.conf = conf;
    this.root = root;
    this.keep = keep;
  }

  static S3Target open(S3Config config, PrintStream log) throws IOException {
    String run = String.format(Locale.ROOT, "hpf-bench-s3-%d", System.currentTimeMillis());
    if (config.fs != null) {
      Configuration conf = configuration(new Configuration(), config);
      return new S3Target(null, conf, new Path(new Path(config.fs), run), config.keep);
    }
    S3Server server = S3Server.start();
    log.printf(Locale.ROOT, "S3 server on 127.0.0.1:%d, started in %.1f s%n", server.port(),
        server.startMillis() / 1e3);
    Configuration conf = server.configuration();
    // S3 returns at most 1,000 keys a page whatever a client asks for; S3A asks for 5,000.
    conf.setInt("fs.s3a.paging.maximum", 1000);
    return new S3Target(server, configuration(conf, config), new Path(server.bucketRoot(), run),
        false);
  }

  private static Configuration configuration(Configuration conf, S3Config config) {
    for (java.io.File file : config.confFiles) {
      conf.addResource(new Path(file.getAbsoluteFile().toURI()));
    }
    config.settings.forEach(conf::set);
    return conf;
  }

  /** A directory of this run's, {@code name}, as a target that closing leaves alone. */
  S3Target below(String name) {
    return new S3Target(null, conf, new Path(root, name), true);
  }

  /** The log of the local server the run started, or null on a bucket of the user's. */
  ServerLog serverLog() {
    return server == null ? null : new ServerLog(server);
  }

  /** A copy of the settings of s3a:// here, to change for one measurement. */
  Configuration conf() {
    return new Configuration(conf);
  }

  /** The run's own directory. */
  Path root() {
    return root;
  }

  /**
   * The run's directory {@code name} for one way of storing the files: below {@link #root} on
   * a bucket of the user's; on the local server, in a bucket of its own. That server reads the
   * list of all a bucket's keys for every request, so 10,000 objects of one way would slow the
   * requests of the next, which S3 does not.
   */
  Path directory(String name) throws IOException {
    if (server == null) {
      return new Path(root, name);
    }
    return new Path(server.bucket("hpf-bench-" + name), root.getName());
  }

  /**
   * A new client of the bucket of {@code path} made with {@code conf}, with nothing open and
   * nothing counted: Hadoop's cached one, which hpf's readers and writers given {@code conf}
   * use too. The client cached before is closed.
   */
  FileSystem newClient(Configuration conf, Path path) throws IOException {
    path.getFileSystem(conf).close();
    return path.getFileSystem(conf);
  }

  @Override
  public void close() throws IOException {
    try {
      if (server == null && !keep) {
        FileSystem fs = newClient(conf, root);
        fs.delete(root, true);
        fs.close();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }
}
