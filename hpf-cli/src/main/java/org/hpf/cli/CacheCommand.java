package org.hpf.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.hpf.HpfException;
import org.hpf.internal.hdfs.CachePinning;
import org.hpf.internal.hdfs.CacheStatus;
import org.hpf.WriteSettings;
import org.hpf.internal.hdfs.HdfsReport;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf cache}: the HDFS cache directives that pin an archive's index in memory. */
@Command(name = "cache", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Shows, adds or removes the HDFS centralized cache directives that keep the"
        + " archive's index files, directories and manifest in the DataNodes' memory, so that a"
        + " lookup reads its record from memory.",
        "Create, append, rm and compact pin each new generation themselves (unless --no-cache)"
            + " and remove the directives of files it no longer uses; use --pin after the"
            + " archive was moved or the pool was created later, --unpin to free the memory.",
        "--status shows the NameNode's figures from the DataNodes' last cache reports: bytes"
            + " needed against bytes cached. On other file systems there is nothing to pin;"
            + " --status says so and --pin and --unpin fail."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class CacheCommand extends HpfSubcommand {
  @ArgGroup(exclusive = true, multiplicity = "0..1", order = 1)
  private Action action = new Action();

  @Mixin
  private CacheOptions cache = new CacheOptions();

  @Option(names = "--wait", paramLabel = "SECONDS", order = 20,
      description = "With --status or --pin: wait up to SECONDS until every pinned file is"
          + " cached, and fail (exit code 1) if it is not.")
  private Integer waitSeconds;

  @Option(names = "--json", order = 21, description = "With --status: print one JSON object.")
  private boolean json;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  static final class Action {
    @Option(names = "--status", order = 2, description = "Show what is cached (the default).")
    boolean status;

    @Option(names = "--pin", order = 3,
        description = "Add the directives of the newest generation, remove others.")
    boolean pin;

    @Option(names = "--unpin", order = 4,
        description = "Remove every directive of the archive from the pool.")
    boolean unpin;
  }

  @Override
  protected int run() throws Exception {
    if (waitSeconds != null && (waitSeconds < 0 || action.unpin)) {
      throw new ParameterException(spec.commandLine(), waitSeconds < 0
          ? "--wait must not be negative" : "--wait goes with --status or --pin");
    }
    // Opened as every reading command opens it: the path is asked about only if that fails.
    openArchive(archive).close();
    Path path = resolve(archive);
    FileSystem fs = fileSystem(path);
    if (!(fs instanceof DistributedFileSystem)) {
      if (action.pin || action.unpin) {
        throw new ParameterException(spec.commandLine(), "cache pinning needs HDFS; " + path
            + " is on " + fs.getUri().getScheme() + "://");
      }
      print(info(fs, path, cache.pool(configuration())));
      return ExitCodes.OK;
    }
    if (action.unpin) {
      int removed = CachePinning.unpin(fs, path, cache.pool(configuration()));
      if (!quiet()) {
        out().printf(Locale.ROOT, "removed %d cache directive(s) of %s from pool %s%n", removed,
            path, CachePinning.poolOf(fs, path, cache.pool(configuration())));
      }
      return ExitCodes.OK;
    }
    if (action.pin) {
      WriteSettings options;
      try {
        options = cache.settings(configuration(), null).build();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      HdfsReport.Pinning pinning = CachePinning.pin(fs, path, options);
      if (pinning.filesPinned() == 0 && pinning.skipped() != null) {
        throw new HpfException("cache pinning failed: " + pinning.skipped());
      }
      if (pinning.skipped() != null) {
        err().println("hpf: warning: " + pinning.skipped());
      }
      if (!quiet()) {
        out().printf(Locale.ROOT, "pinned %d file(s) of %s (%s) in pool %s: %d directive(s)"
                + " added, %d removed%n", pinning.filesPinned(), path,
            Units.bytes(pinning.bytesPinned()), pinning.pool(), pinning.added(),
            pinning.removed());
      }
      if (waitSeconds == null) {
        return ExitCodes.OK;
      }
    }
    CacheStatus status = CachePinning.awaitCached(fs, path, cache.pool(configuration()),
        Duration.ofSeconds(waitSeconds == null ? 0 : waitSeconds));
    if (!(action.pin && quiet())) {
      print(describe(status));
    }
    if (waitSeconds != null && !status.fullyCached()) {
      throw new HpfException("not fully cached after " + waitSeconds + " s: "
          + status.bytesCached() + " of " + status.bytesNeeded() + " bytes (are the DataNodes'"
          + " dfs.datanode.max.locked.memory and memlock limit large enough?)");
    }
    return ExitCodes.OK;
  }

  private void print(Map<String, Object> fields) {
    if (json) {
      out().print(Json.write(fields));
      return;
    }
    PrintStream out = out();
    fields.forEach((key, value) -> out.printf(Locale.ROOT, "%-16s %s%n", key, value));
  }

  /**
   * The cache fields of {@code hpf info} and {@code hpf cache --status}: the status on HDFS,
   * why there is none elsewhere, or why it could not be read.
   */
  static Map<String, Object> info(FileSystem fs, Path archive, String pool) {
    if (!(fs instanceof DistributedFileSystem)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("available", false);
      m.put("state", "skipped: the archive is on " + fs.getUri().getScheme() + "://, not HDFS;"
          + " only HDFS caches files in DataNode memory");
      return m;
    }
    try {
      return describe(CachePinning.status(fs, archive, pool));
    } catch (IOException e) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("available", true);
      m.put("pool", pool);
      m.put("state", "unknown: " + ErrorHandler.message(e));
      return m;
    }
  }

  private static Map<String, Object> describe(CacheStatus s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("available", true);
    m.put("pool", s.pool());
    m.put("generation", s.generation());
    m.put("filesWanted", s.filesWanted());
    m.put("directives", s.directives());
    m.put("filesCached", s.filesCached());
    m.put("bytesNeeded", s.bytesNeeded());
    m.put("bytesCached", s.bytesCached());
    m.put("staleDirectives", s.staleDirectives());
    String stale = s.staleDirectives() == 0 ? ""
        : "; " + s.staleDirectives() + " directive(s) of files older generations used";
    m.put("state", s.fullyCached() ? "fully cached" + stale
        : s.directives() == 0 ? "not pinned (hpf cache --pin pins it)" + stale
        : s.unpinned().isEmpty() ? "pinned, " + percent(s) + " cached so far" + stale
        : "partly pinned: " + s.unpinned().size() + " file(s) without a directive" + stale);
    return m;
  }

  private static String percent(CacheStatus s) {
    return s.bytesNeeded() == 0 ? "0%" : String.format(Locale.ROOT, "%.0f%%",
        100.0 * s.bytesCached() / s.bytesNeeded());
  }
}
