package org.hpf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.hpf.bench.scale.ScaleConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage and settings errors, which fail before any cluster starts. */
class BenchCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return BenchCommand.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpListsTheRunOptions() {
    assertEquals(0, run("run", "--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    for (String option : List.of("--files", "--fs", "--datanodes", "--replication",
        "--block-size", "--seed", "--content", "--size-dist", "--gets", "--reps")) {
      assertTrue(help.contains(option), option);
    }
  }

  @Test
  void harWithoutHdfsIsBadUsage(@TempDir Path dir) {
    assertEquals(2, run("run", "--files", "10", "--systems", "HPF,HAR", "-o", dir.toString()));
    assertTrue(err().contains("HAR archives the files the HDFS system uploads"), err());
  }

  @Test
  void unknownSuiteAndSystemAreBadUsage(@TempDir Path dir) {
    assertEquals(2, run("run", "--suites", "speed", "-o", dir.toString()));
    assertTrue(err().contains("unknown suite speed"), err());
    assertEquals(2, run("run", "--systems", "HDFS,Ozone", "-o", dir.toString()));
    assertTrue(err().contains("unknown system Ozone"), err());
  }

  @Test
  void s3CountsRequestsOnS3aOnly(@TempDir Path dir) {
    assertEquals(2, run("s3", "--fs", "hdfs://namenode:8020/tmp", "-o", dir.toString()));
    assertTrue(err().contains("--fs must be an s3a:// URI"), err());
    assertEquals(2, run("s3", "--files", "10", "--gets", "6", "-o", dir.toString()));
    assertTrue(err().contains("--gets must be at most half of --files"), err());
  }

  @Test
  void unknownOptionIsBadUsage() {
    assertEquals(2, run("run", "--no-such-option"));
    assertEquals(2, run());
  }

  @Test
  void batchSizeDividesEveryDatasetSize() {
    assertEquals(10_000, BenchRun.batchSize(List.of(10_000, 50_000, 100_000)));
    assertEquals(6_250, BenchRun.batchSize(List.of(25_000, 100_000)));
    assertEquals(300, BenchRun.batchSize(List.of(300, 600)));
    assertEquals(7, BenchRun.batchSize(List.of(7)));
    assertEquals(8_000, BenchRun.batchSize(List.of(16_000)));
  }

  @Test
  void scaleFlagsTurnThingsOff() {
    CommandLine cli = new CommandLine(new BenchCommand());
    CommandLine.ParseResult parsed = cli.parseArgs("scale", "--no-compare", "--no-verify");
    ScaleConfig config = ((BenchCommand.Scale) parsed.subcommand().commandSpec().userObject())
        .config;
    assertEquals(List.of(), config.compare);
    assertEquals(false, config.verify);
    assertEquals(List.of(100_000), new ScaleConfig().compare, "compared by default");
  }
}
