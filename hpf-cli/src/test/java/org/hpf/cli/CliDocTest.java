package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/CLI.md is executable: its examples run here, top to bottom, in one fresh directory, and
 * their output must be what the page shows. The demo's example needs a MiniDFSCluster and runs
 * in {@link DemoCommandTest}.
 */
class CliDocTest {
  @TempDir
  Path dir;

  @Test
  void examplesRunAsDocumented() throws Exception {
    DocExamples examples = new DocExamples(dir);
    int transcripts = 0;
    for (DocExamples.Block block : DocExamples.blocks(DocExamples.doc("CLI.md"))) {
      if (block.contains("$ hpf demo")) {
        continue;
      }
      examples.run(block);
      if (block.language().equals("console")) {
        transcripts++;
      }
    }
    assertTrue(transcripts >= 10, "the page has its examples: " + transcripts);
  }

  /** Every subcommand has at least one example that runs. */
  @Test
  void everyCommandHasAnExample() throws Exception {
    Set<String> documented = new TreeSet<>();
    for (DocExamples.Block block : DocExamples.blocks(DocExamples.doc("CLI.md"))) {
      if (block.language().equals("console")) {
        for (DocExamples.Step step : DocExamples.steps(block)) {
          List<String> words = DocExamples.split(step.command());
          if (words.get(0).equals("hpf")) {
            documented.add(words.get(1));
          }
        }
      }
    }
    Set<String> commands = new TreeSet<>(HpfCommand.commandLine(System.out, System.err)
        .getSubcommands().keySet());
    commands.removeAll(documented);
    assertEquals(Set.of(), commands, "commands without an example in docs/CLI.md");
    assertTrue(documented.contains("--version"), "--version has an example");
  }

  /** The exit-code table of the page is the one hpf --help prints. */
  @Test
  void exitCodeTableMatchesTheCode() throws Exception {
    String page = Files.readString(DocExamples.doc("CLI.md"), StandardCharsets.UTF_8);
    Matcher rows = Pattern.compile("(?m)^\\| (\\d+) \\| (.+) \\|$").matcher(page);
    Map<String, String> codes = new java.util.LinkedHashMap<>();
    while (rows.find()) {
      // Right-aligned in two columns, as --help prints them.
      codes.put(String.format(java.util.Locale.ROOT, "%2s", rows.group(1)), rows.group(2));
    }
    assertEquals(ExitCodes.descriptions(), codes);
    assertFalse(codes.isEmpty());
  }
}
