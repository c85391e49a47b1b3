package org.hpf.bench.extract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import org.hpf.bench.CliBuild;
import org.hpf.bench.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hpf-bench extract} with the real bin/hpf and tar on a small tree. */
class ExtractSuiteIT {
  @TempDir Path dir;

  @Test
  void timesBothToolsAndChecksTheyWroteTheSameFiles() throws Exception {
    Path tree = dir.resolve("tree");
    Random random = new Random(4);
    long bytes = 0;
    for (int i = 0; i < 120; i++) {
      Path file = tree.resolve("d" + (i % 5) + "/s" + (i % 3) + "/f" + i + ".txt");
      Files.createDirectories(file.getParent());
      byte[] content = ("line " + i + "\n").repeat(random.nextInt(200))
          .getBytes(StandardCharsets.UTF_8);
      Files.write(file, content);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
          List.of("rwxr-xr-x", "rw-------", "rw-r-----", "rw-r--r--").get(i % 4)));
      Files.setLastModifiedTime(file, FileTime.fromMillis(1_700_000_000_000L + i * 1000L));
      bytes += content.length;
    }
    ExtractConfig config = new ExtractConfig();
    config.tree = tree.toFile();
    config.runs = 2;
    config.out = dir.resolve("out").toFile();
    File root = new File(System.getProperty("hpf.root"));
    CliBuild.awaitPackaged(root);
    config.hpf = new File(root, "bin/hpf");
    assertEquals(null, config.problem());
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    ExtractRun.ExtractResults r = new ExtractRun(config, new PrintStream(log, true,
        StandardCharsets.UTF_8)).run();

    assertEquals(120, r.files());
    assertEquals(bytes, r.bytes());
    assertEquals(4, r.timings().size());
    assertEquals(2, r.timings().stream().filter(t -> t.tool().equals("tar -x")).count());
    assertTrue(r.tarMedianSeconds() > 0 && r.hpfMedianSeconds() > 0, r.toString());
    JsonNode json = Results.mapper().readTree(new File(config.out, "extract.json"));
    assertEquals(120, json.get("files").asLong());
    String md = Files.readString(config.out.toPath().resolve("extract.md"));
    assertTrue(md.contains("| 2 | hpf extract |"), md);
    assertTrue(log.toString(StandardCharsets.UTF_8).contains("median: tar -x"), log.toString());

    config.runs = 0;
    assertEquals("--runs must be positive", config.problem());
  }
}
