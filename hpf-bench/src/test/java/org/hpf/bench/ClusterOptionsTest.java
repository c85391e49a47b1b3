package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hpf.bench.experiments.ExperimentCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every command that runs a cluster takes the same cluster options, defined once in the
 * {@link ClusterOptions} mixin (and {@link BlockOptions} where systems share one layout): each
 * parses them into its mixin, keeps its own {@code --out} default and lists them in its help.
 */
class ClusterOptionsTest {
  private static final List<String> CLUSTER = List.of("--out", "--work", "--keep-work", "--fs",
      "--cluster", "--datanodes", "--seed");
  private static final List<String> BLOCKS = List.of("--replication", "--block-size");

  /** Each command line, with the default of its {@code --out}. */
  private static Map<List<String>, String> commands() {
    Map<List<String>, String> commands = new java.util.LinkedHashMap<>();
    commands.put(List.of("run"), "results");
    commands.put(List.of("headline"), "results");
    commands.put(List.of("scale"), "results/scale");
    commands.put(List.of("mapreduce"), "results/mapreduce");
    commands.put(List.of("exp", "all"), "results/experiments");
    ExperimentCommand.all().forEach(e -> commands.put(List.of("exp", e.name()),
        "results/experiments"));
    return commands;
  }

  private static boolean comparesSystems(List<String> command) {
    return !command.get(0).equals("exp");
  }

  /** The instance of {@code type} among the mixins of {@code spec}, at any depth. */
  private static <T> T mixin(CommandSpec spec, Class<T> type) {
    for (CommandSpec m : spec.mixins().values()) {
      if (type.isInstance(m.userObject())) {
        return type.cast(m.userObject());
      }
      T inner = mixin(m, type);
      if (inner != null) {
        return inner;
      }
    }
    return null;
  }

  private static CommandSpec parse(List<String> command, String... options) {
    List<String> args = new ArrayList<>(command);
    args.addAll(List.of(options));
    CommandLine.ParseResult parsed = new CommandLine(new BenchCommand())
        .parseArgs(args.toArray(String[]::new));
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    return parsed.commandSpec();
  }

  @Test
  void everyCommandParsesTheSharedOptionsIntoTheMixin() {
    commands().forEach((command, out) -> {
      List<String> options = new ArrayList<>(List.of("--out", "o", "--work", "w",
          "--keep-work", "--fs", "hdfs://nn:8020", "--datanodes", "5", "--seed", "7"));
      if (comparesSystems(command)) {
        options.addAll(List.of("--replication", "2", "--block-size", "1048576"));
      }
      CommandSpec spec = parse(command, options.toArray(String[]::new));
      ClusterOptions cluster = mixin(spec, ClusterOptions.class);
      assertNotNull(cluster, command.toString());
      assertEquals(new File("o"), cluster.out, command.toString());
      assertEquals(new File("w").getAbsoluteFile(), cluster.workDir(), command.toString());
      assertTrue(cluster.keepWork, command.toString());
      assertEquals(URI.create("hdfs://nn:8020"), cluster.fs, command.toString());
      assertEquals(5, cluster.dataNodes, command.toString());
      assertEquals(7, cluster.seed, command.toString());
      assertEquals(BenchCluster.Mode.EXTERNAL, mixin(parse(command, "--cluster", "External"),
          ClusterOptions.class).mode, command.toString());
      BlockOptions blocks = mixin(spec, BlockOptions.class);
      if (comparesSystems(command)) {
        assertEquals(2, blocks.replication, command.toString());
        assertEquals(1 << 20, blocks.blockSize, command.toString());
      } else {
        assertNull(blocks, command + ": the experiments set their own layouts");
      }
    });
  }

  @Test
  void everyCommandKeepsItsDefaults() {
    commands().forEach((command, out) -> {
      CommandSpec spec = parse(command);
      ClusterOptions cluster = mixin(spec, ClusterOptions.class);
      assertEquals(new File(out), cluster.out, command.toString());
      assertEquals(new File(out, "work").getAbsoluteFile(), cluster.workDir());
      assertFalse(cluster.keepWork);
      assertNull(cluster.fs);
      assertEquals(3, cluster.dataNodes);
      assertEquals(20260101, cluster.seed);
      assertEquals(BenchCluster.Mode.EMBEDDED, cluster.mode);
      if (comparesSystems(command)) {
        BlockOptions blocks = mixin(spec, BlockOptions.class);
        assertEquals(3, blocks.replication);
        assertEquals(128L << 20, blocks.blockSize);
      }
    });
  }

  @Test
  void aClusterToStartAndOneToUseAreRefusedTogether() {
    ClusterOptions both = new ClusterOptions(new File("o"));
    both.fs = URI.create("hdfs://nn:8020");
    both.mode = BenchCluster.Mode.EXTERNAL;
    assertTrue(both.problem().contains("--fs"), both.problem());
    both.mode = BenchCluster.Mode.EMBEDDED;
    assertNull(both.problem());
    BenchConfig config = new BenchConfig();
    config.cluster = both;
    config.cluster.mode = BenchCluster.Mode.EXTERNAL;
    assertEquals(both.problem(), config.problem());
  }

  @Test
  void everyCommandsHelpListsTheSharedOptions() {
    commands().forEach((command, out) -> {
      List<String> args = new ArrayList<>(command);
      args.add("--help");
      ByteArrayOutputStream help = new ByteArrayOutputStream();
      assertEquals(0, BenchCommand.execute(args.toArray(String[]::new),
          new PrintStream(help, true, StandardCharsets.UTF_8), System.err));
      String text = help.toString(StandardCharsets.UTF_8);
      List<String> expected = new ArrayList<>(CLUSTER);
      if (comparesSystems(command)) {
        expected.addAll(BLOCKS);
      }
      expected.forEach(o -> assertTrue(text.contains(o), command + " --help lacks " + o));
      assertTrue(text.replaceAll("\\s+", " ").contains("(default: " + out + ")"),
          command + ": " + text);
    });
  }
}
