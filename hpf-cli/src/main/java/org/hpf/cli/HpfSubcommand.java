package org.hpf.cli;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsReport;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.Recovery;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every subcommand shares: the common options (Hadoop's generic options, {@code --verbose},
 * {@code --quiet}), the Hadoop {@link Configuration} they build, path resolution and the output
 * streams. Subcommands implement {@link #run()}; errors propagate to {@link ErrorHandler}.
 */
abstract class HpfSubcommand implements Callable<Integer> {
  /** Footer of the subcommands that take paths. */
  static final String PATHS_FOOTER = "%nPaths: hdfs://host:port/path, file:///path or a plain"
      + " path. A plain path is on the default file system (fs.defaultFS, set with -fs, -D or"
      + " --conf); when none is set, that is the local file system and a relative plain path is"
      + " relative to the current directory.";

  @ParentCommand
  private HpfCommand hpf;

  @Spec
  CommandSpec spec;

  @ArgGroup(validate = false, heading = "%nCommon options:%n", order = 100)
  private CommonOptions common = new CommonOptions();

  private Configuration configuration;

  /** Scheme and authority of the last non-local path {@link #resolve} qualified. */
  private String lastFileSystem;

  private final Logging logging = new Logging();

  @Override
  public final Integer call() throws Exception {
    if (common.verbose) {
      logging.verbose();
    }
    try {
      int code = KerberosLogin.runAs(login(), this::run);
      if (code != ExitCodes.OK) {
        Logging.failureReported(common.verbose);
      }
      return code;
    } catch (Exception e) {
      Logging.failureReported(common.verbose);
      KerberosLogin.NotAuthenticatedException explained = KerberosLogin.explain(e,
          fileSystemName());
      if (explained != null) {
        throw explained;
      }
      IOException refused = configuration == null ? null
          : ObjectStoreErrors.explain(e, configuration, lastFileSystem);
      throw refused != null ? refused : e;
    } catch (Error e) {
      // Out of memory: by now the command's finally blocks and close() calls have run (a failed
      // create or append removed what it wrote); ErrorHandler says which limit to raise.
      if (ErrorHandler.outOfMemory(e) != null) {
        throw new ErrorHandler.OutOfMemory(e);
      }
      throw e;
    } finally {
      logging.close();
    }
  }

  /**
   * The summary line of what a commit did with HDFS features (storage policy, cache pinning), or
   * why it skipped them; nothing if the command had no report.
   */
  /** The summary line on symbolic links, when the walk met any. */
  static void printLinks(PrintStream out, org.hpf.internal.write.SourceLinks links) {
    if (links != null && links.any()) {
      out.println("  links          " + links.describe());
    }
  }

  static void printHdfs(PrintStream out, HdfsReport report) {
    if (report != null) {
      out.println("  hdfs           " + report.describe(report.warnings().isEmpty()));
    }
  }

  /**
   * Says once on stderr what did not go as asked with HDFS features (cache pinning without
   * rights to the pool, ...): the archive is committed all the same. Nothing with --quiet.
   */
  void printHdfsWarnings(HdfsReport report) {
    if (report != null && !quiet()) {
      printWarnings(report.warnings());
    }
  }

  /**
   * Hands the security settings to Hadoop; returns the user logged in from {@code --keytab}, or
   * null without one.
   */
  private UserGroupInformation login() throws IOException {
    if ((common.principal == null) != (common.keytab == null)) {
      throw new ParameterException(spec.commandLine(),
          "--principal and --keytab go together");
    }
    if (common.keytab != null && !common.keytab.isFile()) {
      throw new ParameterException(spec.commandLine(), "--keytab: no such file: "
          + common.keytab);
    }
    return KerberosLogin.apply(configuration(), common.principal, common.keytab);
  }

  /**
   * The file system an authentication error names: the last one resolved other than the local
   * one (which needs no login), else the default one.
   */
  private String fileSystemName() {
    if (lastFileSystem != null) {
      return lastFileSystem;
    }
    try {
      return FileSystem.getDefaultUri(configuration()).toString();
    } catch (RuntimeException e) {
      return "the file system";
    }
  }

  /** Does the subcommand's work; returns an {@link ExitCodes exit code}. */
  protected abstract int run() throws Exception;

  /** Log levels for this run, restored when it ends. */
  Logging logging() {
    return logging;
  }

  boolean verbose() {
    return common.verbose;
  }

  boolean quiet() {
    return common.quiet;
  }

  /** Standard output, for bytes and results. */
  PrintStream out() {
    return hpf.out();
  }

  /** Standard error, for progress and errors. */
  PrintStream err() {
    return hpf.err();
  }

  /**
   * The configuration the options describe, in Hadoop's GenericOptionsParser order: the
   * {@code --conf} files, then {@code -fs}, then the {@code -D} properties.
   */
  Configuration configuration() {
    if (configuration == null) {
      Configuration conf = new Configuration();
      for (File file : common.confFiles) {
        if (!file.isFile()) {
          throw new ParameterException(spec.commandLine(), "--conf: no such file: " + file);
        }
        conf.addResource(new Path(file.getAbsoluteFile().toURI()));
      }
      if (common.defaultFs != null) {
        FileSystem.setDefaultUri(conf,
            "local".equals(common.defaultFs) ? "file:///" : common.defaultFs);
      }
      common.properties.forEach(conf::set);
      configuration = conf;
    }
    return configuration;
  }

  /** The fully qualified path a command-line argument names (see {@link #PATHS_FOOTER}). */
  Path resolve(String argument) throws IOException {
    if (argument.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "empty path");
    }
    Path path;
    try {
      path = new Path(argument);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "bad path '" + argument + "': "
          + e.getMessage());
    }
    Path qualified = path.getFileSystem(configuration()).makeQualified(path);
    if (!"file".equals(qualified.toUri().getScheme())) {
      lastFileSystem = qualified.toUri().getScheme() + "://"
          + (qualified.toUri().getAuthority() == null ? "" : qualified.toUri().getAuthority());
    }
    return qualified;
  }

  /**
   * Opens the archive an argument names. A path that does not exist is reported as such
   * (exit code {@link ExitCodes#NOT_FOUND}) rather than as a directory without a manifest; it is
   * asked only when the open fails, since on an object store the question costs a HEAD and a
   * LIST.
   */
  HpfReader openArchive(String argument) throws IOException {
    return openArchive(argument, ReaderOptions.defaults());
  }

  HpfReader openArchive(String argument, ReaderOptions options) throws IOException {
    Path archive = resolve(argument);
    try {
      return HpfReader.open(fileSystem(archive), archive, options);
    } catch (FileNotFoundException | NoCommittedGenerationException e) {
      throw whyNotOpened(archive, e);
    }
  }

  /**
   * The error to report for an open of {@code archive} that failed with {@code e}: that the
   * archive does not exist where its path does not, else {@code e}. The path is asked about only
   * here, after the failure: on an object store the question costs a HEAD and a LIST.
   */
  IOException whyNotOpened(Path archive, IOException e) throws IOException {
    return fileSystem(archive).exists(archive) ? e
        : new FileNotFoundException("archive does not exist: " + archive);
  }

  /** The owners, groups and modes recorded in the archive an argument names, open in reader. */
  RecordedAccess recordedAccess(HpfReader reader, String argument) throws IOException {
    Path archive = resolve(argument);
    return new RecordedAccess(reader, fileSystem(archive), archive);
  }

  /** Whether a path is an archive: a directory with a {@code _manifests} directory. */
  boolean isArchive(Path path) throws IOException {
    return fileSystem(path).isDirectory(new Path(path, Manifest.DIR));
  }

  /**
   * The usage error for arguments given in the other command's order (create takes the archive
   * last, append first): the one that should be the archive is not one and the other is.
   */
  ParameterException swappedArguments(String archive, String command) {
    return new ParameterException(spec.commandLine(), "'" + archive + "' is an archive, and "
        + spec.name() + " takes it " + ("create".equals(spec.name()) ? "last" : "first")
        + ": did you mean '" + command + "'?");
  }

  /**
   * Says on stderr what failed after a commit without undoing it (the command still succeeds:
   * running it again would find its change already made).
   */
  void printWarnings(java.util.List<String> warnings) {
    for (String warning : warnings) {
      err().println("hpf: warning: " + warning);
    }
  }

  /** Says on stderr what recovery did when a writer opened the archive, if anything. */
  void reportRecovery(Recovery.Report report) {
    if (report.didAnything() && !quiet()) {
      err().println("hpf: recovered first (a writer had died): " + report.describe());
    }
  }

  /**
   * The display of this run's long work: a progress bar when standard output is a terminal,
   * plain lines on stderr otherwise, nothing with {@code --quiet}.
   */
  Progress progress(String task) {
    return Progress.create(progressMode(), task, err(), common.progressIntervalMillis);
  }

  Progress.Mode progressMode() {
    if (quiet()) {
      return Progress.Mode.NONE;
    }
    return terminal() ? Progress.Mode.BAR : Progress.Mode.LINES;
  }

  /**
   * True when standard output is an interactive terminal: this run writes to the JVM's own
   * stdout (not captured, as in tests), the JVM has a console (stdin and stdout are terminals)
   * and the terminal is not "dumb".
   */
  boolean terminal() {
    return out() == System.out && System.console() != null
        && !"dumb".equals(System.getenv("TERM"));
  }

  /** The file system of a path; the raw local file system instead of the checksummed one. */
  FileSystem fileSystem(Path path) throws IOException {
    FileSystem fs = path.getFileSystem(configuration());
    return fs instanceof LocalFileSystem local ? local.getRaw() : fs;
  }

  /** The options every subcommand takes; Hadoop's generic options among them. */
  static final class CommonOptions {
    @Option(names = "--verbose", order = 1,
        description = "Print stack traces of errors, and hpf's own log.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, order = 2, description = "Print no progress and no summary.")
    boolean quiet;

    @Option(names = "-D", paramLabel = "<key=value>", mapFallbackValue = "", order = 3,
        description = "Set a Hadoop configuration property (repeatable).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--conf", paramLabel = "<file>", order = 4,
        description = "Add a Hadoop configuration file (e.g. core-site.xml; repeatable).")
    File[] confFiles = new File[0];

    @Option(names = {"-fs", "--fs"}, paramLabel = "<uri>", order = 5,
        description = "The default file system (fs.defaultFS), e.g. hdfs://namenode:8020, or"
            + " 'local'.")
    String defaultFs;

    @Option(names = "--principal", paramLabel = "<name>", order = 6,
        description = "Log in to Kerberos as this principal (e.g. etl@EXAMPLE.COM), from"
            + " --keytab. Without them a Kerberized cluster uses the ticket cache (kinit).")
    String principal;

    @Option(names = "--keytab", paramLabel = "<file>", order = 7,
        description = "The keytab of --principal; implies"
            + " hadoop.security.authentication=kerberos.")
    File keytab;

    /** How often plain progress lines are printed (tests shorten or lengthen it). */
    @Option(names = "--progress-interval", paramLabel = "<ms>", hidden = true,
        defaultValue = "2000")
    long progressIntervalMillis = 2000;
  }
}
