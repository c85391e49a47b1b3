package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf demo} end to end, small: its own MiniDFSCluster, a few hundred files; the example
 * of docs/CLI.md (which {@link CliDocTest} leaves to this test).
 */
@Tag("hdfs")
class DemoCommandTest {
  @TempDir
  Path dir;

  /** Runs the demo's example of docs/CLI.md, checks its output there and here. */
  @Test
  void demoPassesAndCleansUp() throws Exception {
    Set<Path> before = demoDirs();
    DocExamples.Block block = DocExamples.blocks(DocExamples.doc("CLI.md")).stream()
        .filter(b -> b.contains("$ hpf demo")).findFirst().orElseThrow();
    DocExamples.Step step = DocExamples.steps(block).get(0);
    List<String> args = DocExamples.split(step.command());
    assertEquals(List.of("hpf", "demo", "--files", "300", "--sample", "60", "--seed", "5"), args);
    assertEquals(1, DocExamples.steps(block).size());
    DocExamples.Output output = new DocExamples(dir).execute(step.command());
    System.out.println(output.text());
    assertEquals(ExitCodes.OK, output.code(), output::text);
    DocExamples.check(step, output);
    String out = output.text();
    assertTrue(out.contains("300 files"), out);
    assertTrue(out.contains("60 of 60 identical"), out);
    assertTrue(out.contains("the archive (measured)"), out);
    assertTrue(out.contains("as plain HDFS files (computed)"), out);
    assertTrue(out.contains("demo passed"), out);
    // The demo cluster's DataNodes have locked memory: the index is pinned and cached whole.
    assertTrue(out.contains("  hdfs       pinned 2 files ("), out); // manifest and index file
    java.util.regex.Matcher cached = java.util.regex.Pattern.compile(
        "cached     (\\S+ \\S+) of (\\S+ \\S+) of index").matcher(out);
    assertTrue(cached.find() && cached.group(1).equals(cached.group(2)), out);
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
