package org.hpf.cli;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Recovery;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf recover}: brings an archive whose writer died back to a consistent state. */
@Command(name = "recover", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Brings back an archive whose writer died (docs/CRASH-SAFETY.md): commits"
        + " what the dead writer's journal acknowledged, removes stale journals and every file"
        + " no kept generation names. On an object store, where nothing is journaled, it"
        + " removes what a create that never committed left, pending uploads included, so that"
        + " the create can run again. Every writer does this when it opens an archive; run it"
        + " yourself to tidy up, or with --break-lock when a dead writer's lock blocks others"
        + " (exit code 7).",
        "Safe to run at any time: an archive in good order is left as it is."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class RecoverCommand extends HpfSubcommand {
  @Option(names = "--break-lock",
      description = "Remove the lock (_lock) left by a writer that died, first. Only when that"
          + " writer is known to be gone (its host and pid are in the lock): two live writers"
          + " on one archive can lose data.")
  private boolean breakLock;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Override
  protected int run() throws Exception {
    Path archivePath = resolve(archive);
    String holder = breakLock ? lockHolder(archivePath) : null;
    Recovery.Report report = ArchiveWriter.recover(configuration(), archivePath,
        WriterOptions.builder().operation(spec.name()).settings(s -> s.breakLock(breakLock))
            .build());
    printWarnings(report.warnings());
    if (!quiet()) {
      if (holder != null) {
        out().println("broke the lock of " + holder);
      }
      out().println("recovered " + archivePath + ": " + report.describe()
          + (report.removedCreate() ? "" : " (generation " + report.generation() + ")"));
    }
    return ExitCodes.OK;
  }

  /** The first line of the lock file, or null if there is none. */
  private String lockHolder(Path archivePath) {
    Path lock = new Path(archivePath, ArchiveLayout.LOCK);
    try (InputStream in = fileSystem(lock).open(lock)) {
      String text = new String(in.readNBytes(1024), StandardCharsets.UTF_8).strip();
      int newline = text.indexOf('\n');
      return text.isEmpty() ? "an unknown writer" : newline < 0 ? text
          : text.substring(0, newline);
    } catch (java.io.FileNotFoundException e) {
      return null; // asked by opening it: on an object store, a question of its own costs more
    } catch (java.io.IOException e) {
      // A lock still open by a writer on HDFS may not be readable yet; breaking it says enough.
      return "an unknown writer (" + e.getMessage() + ")";
    }
  }
}
