package org.hpf.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/** Configuration files as an operator writes them, for commands given {@code --conf}. */
final class SiteFiles {
  private SiteFiles() {}

  /** The settings of {@code conf} that differ from Hadoop's defaults, written to {@code file}. */
  static Path write(Configuration conf, Path file) throws IOException {
    Configuration defaults = new Configuration();
    Configuration site = new Configuration(false);
    for (Map.Entry<String, String> entry : conf) {
      if (!Objects.equals(entry.getValue(), defaults.get(entry.getKey()))) {
        site.set(entry.getKey(), entry.getValue());
      }
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      site.writeXml(out);
    }
    return file;
  }
}
