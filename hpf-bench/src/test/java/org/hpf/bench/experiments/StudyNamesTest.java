package org.hpf.bench.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hpf.bench.BenchCommand;
import org.hpf.bench.Results;
import org.junit.jupiter.api.Test;

/**
 * The published studies the experiments compare with are named (Kalmukov et al., Kim,
 * Shvachko), never by a bare number a reader cannot look up: not in the commands' help, not in
 * the reports rendered from the results kept in docs/bench/exp, not in docs/BENCHMARKS.md.
 */
class StudyNamesTest {
  private static final Path ROOT = Path.of(System.getProperty("hpf.root", ".."));
  private static final Path RESULTS = ROOT.resolve("docs/bench/exp");

  private static void assertNamesStudies(String text, String where) {
    int at = text.indexOf("seed 00");
    assertEquals(-1, at, where + " cites a study by number: ..."
        + text.substring(Math.max(0, at - 60), Math.min(text.length(), at + 60)) + "...");
  }

  @Test
  void helpOfEveryExperimentNamesTheStudy() {
    List<String> commands = new ArrayList<>(List.of("exp"));
    ExperimentCommand.all().forEach(e -> commands.add("exp " + e.name()));
    for (String command : commands) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<String> args = new ArrayList<>(List.of(command.split(" ")));
      args.add("--help");
      assertEquals(0, BenchCommand.execute(args.toArray(String[]::new),
          new PrintStream(out, true, StandardCharsets.UTF_8), System.err), command);
      assertNamesStudies(out.toString(StandardCharsets.UTF_8), command + " --help");
    }
  }

  @Test
  void reportsOfTheKeptResultsNameTheStudies() throws Exception {
    File[] results = RESULTS.toFile().listFiles((dir, name) -> name.endsWith(".json"));
    assertNotNull(results, RESULTS.toString());
    assertEquals(9, results.length, List.of(results).toString());
    for (File json : results) {
      assertNamesStudies(Files.readString(json.toPath()), json.getName());
      ExperimentResult r = ExperimentResult.read(json);
      assertTrue(r.comparisons.stream().allMatch(c -> c.ours() != null), json.getName());
      String md = ExperimentReport.markdown(r);
      assertNamesStudies(md, "the report of " + json.getName());
      assertTrue(md.contains("| quantity | published | this run | source |"), json.getName());
    }
  }

  @Test
  void resultsThatCallThePublishedValueSeedStillRead() throws Exception {
    String older = "{\"suite\":\"size\",\"comparisons\":[{\"quantity\":\"q\",\"seed\":2.5,"
        + "\"ours\":2.0,\"source\":\"s\"}]}";
    ExperimentResult r = Results.mapper().readValue(older, ExperimentResult.class);
    assertEquals(2.5, r.comparisons.get(0).published());
  }

  @Test
  void benchmarksDocNamesTheStudiesAndListsThem() throws Exception {
    String doc = Files.readString(ROOT.resolve("docs/BENCHMARKS.md"));
    assertNamesStudies(doc, "docs/BENCHMARKS.md");
    String references = doc.substring(doc.lastIndexOf("\n## References"))
        .replaceAll("\\s+", " ");
    for (String title : List.of("Analysis and Experimental Study of HDFS Performance",
        "Effects of Design Factors of HDFS on I/O Performance",
        "HDFS Scalability: The Limits to Growth", "Hadoop Perfect File",
        "NNThroughputBenchmark")) {
      assertTrue(references.contains(title), title);
    }
    assertFalse(doc.contains("| seed |"), "a column of seed values");
  }
}
