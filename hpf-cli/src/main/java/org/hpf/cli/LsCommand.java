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
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code hpf ls}: the archive's member names, streamed in sorted order. */
@Command(name = "ls", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Lists the archive's members, one name per line, in increasing UTF-8 byte"
        + " order, streamed: the first names print before the last are read.",
        "With -l: mode (as ls -l shows it), owner, group, length, stored size (the member's"
            + " entry in its part file: entry header, stored bytes, checksum), modification time"
            + " (ISO-8601, UTC), codec (raw or lz4), name."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class LsCommand extends HpfSubcommand {
  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Option(names = "-l", description = "Long listing (one index record read per member).")
  private boolean longListing;

  @Option(names = "--prefix", paramLabel = "<p>",
      description = "Only names that start with <p> (e.g. app/ or app/2026-01).")
  private String prefix;

  @Override
  protected int run() throws Exception {
    PrintWriter writer = new PrintWriter(new BufferedWriter(
        new OutputStreamWriter(out(), StandardCharsets.UTF_8), 1 << 16), false);
    try (HpfReader reader = openArchive(archive);
        Stream<NameEntry> entries = Names.withPrefix(reader.listEntries(), prefix)) {
      RecordedAccess accesses = longListing ? recordedAccess(reader, archive) : null;
      Iterator<NameEntry> it = entries.iterator();
      long count = 0;
      while (it.hasNext()) {
        NameEntry entry = it.next();
        if (longListing) {
          EntryLocation location = reader.location(entry);
          if (location == null) {
            throw new CorruptArchiveException(reader.location(), "names list '"
                + entry.name() + "' but the index does not have it", null);
          }
          MemberAccess access = accesses.of(entry.access());
          writer.printf(Locale.ROOT, "-%s %-8s %-8s %12d %12d %s %-4s %s%n", access.symbolic(),
              access.owner(), access.group(), entry.length(), location.entryLength(),
              Instant.ofEpochMilli(entry.mtimeMillis()).truncatedTo(ChronoUnit.SECONDS),
              location.codec(), entry.name());
        } else {
          writer.println(entry.name());
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
