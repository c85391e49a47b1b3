package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --help, help, --version and the completion script. */
class HelpAndCompletionTest {
  static final List<String> COMMANDS = List.of("create", "append", "get", "cat", "extract", "ls",
      "rm", "compact", "recover", "info", "verify", "delete-sources", "demo");

  @Test
  void topLevelHelpListsCommandsAndExitCodes() {
    Cli.Result r = Cli.run("--help");
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    for (String command : COMMANDS) {
      assertTrue(r.out().contains("\n  " + command + " "), () -> command + " missing:\n" + r);
    }
    assertTrue(r.out().contains("generate-completion"), r::toString);
    assertTrue(r.out().contains("Exit codes:"), r::toString);
    for (var e : ExitCodes.descriptions().entrySet()) {
      assertTrue(r.out().contains(e.getKey().strip() + "   "
          + e.getValue().substring(0, Math.min(20, e.getValue().length()))),
          () -> e + " missing:\n" + r);
    }
  }

  @Test
  void helpOfEveryCommand() {
    for (String command : COMMANDS) {
      Cli.Result viaHelp = Cli.run("help", command);
      assertEquals(ExitCodes.OK, viaHelp.code(), viaHelp::toString);
      assertTrue(viaHelp.out().startsWith("Usage: hpf " + command), viaHelp::toString);
      assertTrue(viaHelp.out().contains("Common options:"), viaHelp::toString);
      assertTrue(viaHelp.out().contains("Exit codes:"), viaHelp::toString);
      Cli.Result viaOption = Cli.run(command, "--help");
      assertEquals(viaHelp.out(), viaOption.out());
    }
    Cli.Result unknown = Cli.run("help", "frobnicate");
    assertTrue(unknown.code() != ExitCodes.OK, unknown::toString);
  }

  /**
   * Help wraps between words only: no identifier (mapreduce.framework.name,
   * hdfs://namenode:8020, core-site.xml) is cut at its dots, colons or slashes. Every word of
   * the help in 80 columns is a word of the help in 1000.
   */
  @Test
  void helpWrapsBetweenWordsOnly() {
    CommandLine hpf = HpfCommand.commandLine(System.out, System.err);
    List<CommandLine> commands = new ArrayList<>(List.of(hpf));
    COMMANDS.forEach(command -> commands.add(hpf.getSubcommands().get(command)));
    commands.add(hpf.getSubcommands().get("cache"));
    for (CommandLine command : commands) {
      Set<String> narrow = words(command, 80);
      narrow.removeAll(words(command, 1000));
      assertEquals(Set.of(), narrow, () -> "cut words in the help of "
          + command.getCommandName() + ":\n" + usage(command, 80));
    }
  }

  private static Set<String> words(CommandLine command, int width) {
    return new HashSet<>(Arrays.asList(usage(command, width).strip().split("\\s+")));
  }

  private static String usage(CommandLine command, int width) {
    command.getCommandSpec().usageMessage().width(width);
    return command.getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  @Test
  void version() {
    Cli.Result r = Cli.run("--version");
    assertEquals(ExitCodes.OK, r.code());
    assertTrue(r.out().matches("hpf \\S+ \\(archive format version 7\\)\nHadoop \\S+, Java .*\n"),
        r::toString);
  }

  @Test
  void completionScriptCoversCommandsAndOptions() {
    Cli.Result r = Cli.run("generate-completion");
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    String script = r.out();
    assertTrue(script.startsWith("#!/usr/bin/env bash"), script.substring(0, 80));
    assertTrue(script.contains("complete -F _complete_hpf"), "registers the function");
    for (String command : COMMANDS) {
      assertTrue(script.contains(command), command);
    }
    for (String option : List.of("--replace", "--min-live", "--break-lock", "--prefix",
        "--json", "--force")) {
      assertTrue(script.contains(option), option);
    }
  }

  @Test
  void unknownCommandSuggests() {
    Cli.Result r = Cli.run("extrct");
    assertEquals(ExitCodes.USAGE, r.code());
    assertTrue(r.stderr().contains("extract"), r::toString);
  }
}
