package org.hpf.cli;

import java.io.IOException;
import java.net.URI;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code flaky} (register it with
 * {@code fs.flaky.impl}), whose deletes of the files {@link #FAIL_DELETE} matches take effect
 * and then throw, as an HDFS client does when its reply is lost with a pipeline's DataNodes.
 */
public final class FlakyLocalFileSystem extends RawLocalFileSystem {
  /** A regular expression over file names (not paths). */
  static final String FAIL_DELETE = "hpf.test.flaky.fail-delete";

  private Pattern failDelete;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    String regex = conf.get(FAIL_DELETE);
    failDelete = regex == null ? null : Pattern.compile(regex);
  }

  @Override
  public URI getUri() {
    return URI.create("flaky:///");
  }

  @Override
  public String getScheme() {
    return "flaky";
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    boolean deleted = super.delete(path, recursive);
    if (failDelete != null && failDelete.matcher(path.getName()).matches()) {
      throw new IOException("Failed to replace a bad datanode on the existing pipeline due to "
          + "no more good datanodes being available to try");
    }
    return deleted;
  }
}
