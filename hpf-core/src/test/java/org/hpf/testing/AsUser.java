package org.hpf.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/** Work done as another user of a cluster, with a file system client of their own. */
public final class AsUser {
  /** What a user does with their client. */
  @FunctionalInterface
  public interface Action<T> {
    T run(FileSystem fs) throws Exception;
  }

  private AsUser() {}

  /** Runs {@code action} as {@code user}, with a new client of {@code fs} closed after. */
  public static <T> T run(UserGroupInformation user, URI fs, Configuration conf,
      Action<T> action) throws Exception {
    return user.doAs((PrivilegedExceptionAction<T>) () -> {
      try (FileSystem client = FileSystem.newInstance(fs, conf)) {
        return action.run(client);
      }
    });
  }

  /** Writes {@code text} as the file's whole content. */
  public static void write(FileSystem fs, Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
