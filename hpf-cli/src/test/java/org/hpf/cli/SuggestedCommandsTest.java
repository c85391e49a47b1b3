package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.hpf.fs.HpfReadOnlyException;
import org.junit.jupiter.api.Test;

/** Commands that hpf-core's messages tell users to run exist in this CLI. */
class SuggestedCommandsTest {
  private static final Pattern SUGGESTION = Pattern.compile("'hpf ([a-z-]+)'");

  @Test
  void theReadOnlyMessageSuggestsRealCommands() {
    String message = new HpfReadOnlyException("delete", "hpf://file-/a.hpf/x").getMessage();
    List<String> commands = SUGGESTION.matcher(message).results()
        .map(m -> m.group(1)).toList();
    assertFalse(commands.isEmpty(), message);
    Set<String> subcommands = HpfCommand.commandLine(System.out, System.err).getSubcommands()
        .keySet();
    for (String command : commands) {
      assertTrue(subcommands.contains(command),
          () -> "'hpf " + command + "' is not a command of " + subcommands + ": " + message);
    }
  }
}
