package org.hpf.golden;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes the golden archive into the source tree; disabled unless {@code -Dhpf.golden.write=true}:
 * <pre>mvn -B test -pl hpf-core -Dtest=GoldenArchiveWriter -Dhpf.golden.write=true</pre>
 * Only for a new format version ({@link FileHeader#FORMAT_VERSION}): a committed archive must
 * stay what its version's writers wrote.
 */
@EnabledIfSystemProperty(named = "hpf.golden.write", matches = "true")
class GoldenArchiveWriter {
  @TempDir Path tmp;

  @Test
  void writeGoldenArchive() throws Exception {
    Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
    Path target = module.resolve("src/test/resources"
        + GoldenArchive.resource(FileHeader.FORMAT_VERSION));
    Path archive = target.resolve("archive.hpf");
    if (Files.exists(archive)) {
      try (Stream<Path> files = Files.walk(archive)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
    Files.createDirectories(target);
    System.out.println(GoldenArchive.create(tmp, archive));
    try (HpfReader reader = HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(archive.toUri()))) {
      Files.writeString(target.resolve("expected.txt"), GoldenArchive.describe(reader),
          StandardCharsets.UTF_8);
    }
    System.out.println("golden archive written to " + target);
  }
}
