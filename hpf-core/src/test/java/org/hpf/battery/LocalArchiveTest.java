package org.hpf.battery;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** The battery on the local file system: archives and sources under a JUnit temporary folder. */
class LocalArchiveTest extends ArchiveBattery {
  private final Configuration conf = new Configuration();

  @Override
  protected Configuration conf() {
    return conf;
  }

  @Override
  protected Path newArchiveRoot(String testName) throws IOException {
    java.nio.file.Path dir = tmp.resolve("archives");
    Files.createDirectories(dir);
    return new Path(dir.toUri());
  }

  @Override
  protected boolean onHdfs() {
    return false;
  }
}
