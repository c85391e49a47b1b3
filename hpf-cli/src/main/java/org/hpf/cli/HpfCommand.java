package org.hpf.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.util.VersionInfo;
import org.hpf.internal.format.FileHeader;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code hpf} command. {@link #main} is the only place that exits the JVM; everything else
 * returns an {@link ExitCodes exit code}, so tests call {@link #execute} with captured streams.
 */
@Command(name = "hpf", mixinStandardHelpOptions = true, versionProvider = HpfCommand.Version.class,
    description = "Packs many small files into one archive on any Hadoop file system (HDFS"
        + " first); each file is then read back with one lookup.",
    subcommands = {CreateCommand.class, AppendCommand.class, GetCommand.class, CatCommand.class,
        ExtractCommand.class, LsCommand.class, RmCommand.class, CompactCommand.class,
        RecoverCommand.class, InfoCommand.class, VerifyCommand.class, CacheCommand.class,
        DeleteSourcesCommand.class,
        DemoCommand.class, HelpCommand.class, AutoComplete.GenerateCompletion.class},
    footer = {"%nThe common options (--verbose, --quiet, -D, --conf, -fs, --principal,"
        + " --keytab) go after the subcommand or before it, e.g.:",
        "  hpf ls -fs hdfs://namenode:8020 /data/logs.hpf",
        "  hpf --verbose ls /data/logs.hpf",
        "Kerberos: kinit first, or pass --principal and --keytab (docs/SECURITY.md).",
        "%nProgress: a bar on stderr when stdout is a terminal, a plain line every 2 s"
            + " otherwise, nothing with --quiet.",
        "Shell completion (bash, zsh): source <(hpf generate-completion)",
        "Documentation: docs/CLI.md"})
public final class HpfCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;

  @Spec
  private CommandSpec spec;

  HpfCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    int code = execute(args, System.out, System.err);
    Logging.beforeExit();
    System.exit(code);
  }

  /** Runs {@code hpf} with these arguments and streams; returns its exit code. */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    CommandLine cmd = commandLine(out, err);
    try {
      return cmd.execute(LeadingOptions.moveAfterCommand(args, commonOptionCommands(cmd)));
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The subcommands that take the common options: all but help and generate-completion. */
  private static Set<String> commonOptionCommands(CommandLine cmd) {
    Set<String> names = new HashSet<>();
    cmd.getSubcommands().forEach((name, sub) -> {
      if (sub.getCommand() instanceof HpfSubcommand) {
        names.add(name);
      }
    });
    return names;
  }

  static CommandLine commandLine(PrintStream out, PrintStream err) {
    CommandLine cmd = new CommandLine(new HpfCommand(out, err));
    ErrorHandler errors = new ErrorHandler();
    cmd.setExecutionExceptionHandler(errors);
    cmd.setParameterExceptionHandler(errors);
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    cmd.setHelpFactory(WordWrappingHelp::new);
    // picocli hides its completion command by default: list it, it is how users get completion.
    cmd.getSubcommands().get("generate-completion").getCommandSpec().usageMessage()
        .hidden(false);
    applyExitCodeHelp(cmd);
    return cmd;
  }

  private static void applyExitCodeHelp(CommandLine cmd) {
    cmd.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
    cmd.getCommandSpec().exitCodeOnExecutionException(ExitCodes.ERROR);
    if (!(cmd.getCommand() instanceof HelpCommand)) {
      cmd.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
          .exitCodeList(ExitCodes.descriptions());
    }
    for (CommandLine sub : cmd.getSubcommands().values()) {
      applyExitCodeHelp(sub);
    }
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  /** {@code hpf} without a subcommand: the usage, on stderr, as an error. */
  @Override
  public Integer call() {
    err.println("hpf: missing subcommand");
    spec.commandLine().usage(err);
    return ExitCodes.USAGE;
  }

  /** {@code hpf --version}: hpf's version, the archive format it writes, Hadoop and Java. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = HpfCommand.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {
          "hpf " + properties.getProperty("version", "(unknown version)")
              + " (archive format version " + FileHeader.FORMAT_VERSION + ")",
          "Hadoop " + VersionInfo.getVersion() + ", Java " + Runtime.version()
      };
    }
  }
}
