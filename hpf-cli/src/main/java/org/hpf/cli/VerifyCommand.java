package org.hpf.cli;

import java.util.Locale;
import org.apache.hadoop.fs.Path;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hpf verify}: reads and checks every byte of the current generation. */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Checks the archive's current generation completely: every index and part"
        + " file byte by byte against its checksum, every index record against the directory"
        + " and the parts, every member read back through the index (all of its checksums), and"
        + " the manifest's counts against what is there.",
        "Prints every problem found, one per line, and exits 4 if there is any; 0 only when"
            + " everything checks. A file of the archive this user may not read is no damage:"
            + " one line naming it, exit code 1."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class VerifyCommand extends HpfSubcommand {
  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Override
  protected int run() throws Exception {
    Path path = resolve(archive);
    long files;
    long bytes;
    // Opening checks that the archive exists and has a readable manifest and directory.
    try (HpfReader reader = openArchive(archive)) {
      files = reader.manifest().fileCount();
      bytes = reader.manifest().originalBytes();
    }
    long start = System.nanoTime();
    ArchiveVerifier.Report report;
    try (Progress progress = progress("verify")) {
      progress.started(files, bytes);
      progress.phase("verifying");
      report = ArchiveVerifier.verify(new HadoopStorage(path.getFileSystem(configuration()),
          path, (short) 0), ReaderOptions.defaults(), progress);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    for (String problem : report.problems()) {
      out().println("problem: " + problem);
    }
    if (!quiet()) {
      out().printf(Locale.ROOT, "%s %s: %s files, %d index files, %d parts; read %s in %s (%s)%n",
          report.ok() ? "verified" : "FAILED", path, Units.count(report.members()),
          report.indexFiles(), report.parts(), Units.bytes(report.bytesRead()),
          Units.millis(millis), Units.rate(report.bytesRead(), millis));
    }
    if (!report.ok()) {
      err().println("hpf: " + path + " failed verification: " + report.problems().size()
          + " problem(s), listed on standard output");
      return ExitCodes.CORRUPT;
    }
    return ExitCodes.OK;
  }
}
