package org.hpf.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Locale;
import java.util.stream.Stream;
import org.hpf.read.HpfReader;
import org.hpf.read.MemberStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf ls}: the archive's member names, streamed in sorted order. */
@Command(name = "ls", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Lists the archive's members, one name per line, in increasing UTF-8 byte"
        + " order.",
        "With -l: length, stored length (in the archive, with entry header and compression),"
            + " modification time (ISO-8601, UTC), codec (raw or lz4), name."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class LsCommand extends HpfSubcommand {
  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Option(names = "-l", description = "Long listing (one extra read per member).")
  private boolean longListing;

  @Override
  protected int run() throws Exception {
    PrintWriter writer = new PrintWriter(new BufferedWriter(
        new OutputStreamWriter(out(), StandardCharsets.UTF_8), 1 << 16), false);
    try (HpfReader reader = openArchive(archive); Stream<String> names = reader.list()) {
      Iterator<String> it = names.iterator();
      long count = 0;
      while (it.hasNext()) {
        String name = it.next();
        if (longListing) {
          MemberStatus s = reader.stat(name);
          writer.printf(Locale.ROOT, "%12d %12d %s %-4s %s%n", s.length(), s.storedLength(),
              Instant.ofEpochMilli(s.mtimeMillis()).truncatedTo(ChronoUnit.SECONDS), s.codec(),
              name);
        } else {
          writer.println(name);
        }
        if (++count % 1024 == 0) {
          writer.flush();
          if (out().checkError()) {
            // Whoever read our output went away (`hpf ls a.hpf | head`): stop quietly.
            return ExitCodes.OK;
          }
        }
      }
    } finally {
      writer.flush();
    }
    return ExitCodes.OK;
  }
}
