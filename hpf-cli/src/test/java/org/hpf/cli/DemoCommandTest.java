package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code hpf demo} end to end, small: its own MiniDFSCluster, a few hundred files. */
@Tag("hdfs")
class DemoCommandTest {
  @Test
  void demoPassesAndCleansUp() throws IOException {
    Set<Path> before = demoDirs();
    Cli.Result r = Cli.run("demo", "--files", "300", "--sample", "60", "--seed", "5");
    System.out.println(r);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    String out = r.out();
    assertTrue(out.contains("300 files"), out);
    assertTrue(out.contains("60 of 60 identical"), out);
    assertTrue(out.contains("the archive (measured)"), out);
    assertTrue(out.contains("as plain HDFS files (computed)"), out);
    assertTrue(out.contains("demo passed"), out);
    assertEquals(before, demoDirs(), "the demo removes its temporary directory");
  }

  private static Set<Path> demoDirs() throws IOException {
    Path target = Path.of("target");
    if (!Files.isDirectory(target)) {
      return Set.of();
    }
    try (Stream<Path> s = Files.list(target)) {
      return s.filter(p -> p.getFileName().toString().startsWith("hpf-demo-"))
          .collect(Collectors.toSet());
    }
  }
}
