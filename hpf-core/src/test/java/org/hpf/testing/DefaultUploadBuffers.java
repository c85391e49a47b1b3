package org.hpf.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A test S3 server's settings, but with S3A's own default place for its upload buffers,
 * {@code ${hadoop.tmp.dir}/s3a}, a user's default: the server's settings name a directory, which
 * a user who sets one must keep private.
 */
public final class DefaultUploadBuffers {
  private DefaultUploadBuffers() {}

  /** {@code server}'s settings, less its buffer directory, with {@code hadoopTmp}. */
  public static Configuration of(Configuration server, Path hadoopTmp) {
    Configuration conf = new Configuration();
    for (Map.Entry<String, String> setting : server) {
      String[] sources = server.getPropertySources(setting.getKey());
      if (sources != null && List.of(sources).contains("programmatically")
          && !setting.getKey().equals("fs.s3a.buffer.dir")) {
        conf.set(setting.getKey(), setting.getValue());
      }
    }
    conf.set("hadoop.tmp.dir", hadoopTmp.toString());
    return conf;
  }
}
