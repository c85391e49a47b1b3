package org.hpf.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import org.hpf.BatchRead;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.read.BatchReader;
import org.hpf.internal.read.HpfReader;

/**
 * Members' bytes to an output that cannot be taken back (standard output), one after the other
 * in the order given, read as a batch. Every name is looked up before a byte is written: a
 * missing one fails with nothing written. No byte of a member is written before the whole member
 * was checked: members are handed out checked whole, and one too large for the batch's window is
 * read twice, as a single get to standard output reads it.
 */
final class MembersToOutput {
  /** Stops the batch when whoever read the output went away. */
  private static final class OutputClosed extends IOException {
    private static final long serialVersionUID = 1L;
  }

  private MembersToOutput() {}

  /**
   * Writes the members; returns quietly when the reader of {@code out} went away
   * ({@code hpf cat a.hpf x | head}).
   */
  static void write(HpfReader reader, List<String> names, BatchRead settings, PrintStream out)
      throws IOException {
    List<String> absent = reader.absent(names);
    if (!absent.isEmpty()) {
      throw new FileNotInArchiveException(reader.location(), absent.get(0));
    }
    try {
      BatchReader.read(reader, names.iterator(),
          BatchReader.Settings.of(settings.withCallerOrder(true)), member -> {
            member.status(); // throws what reading it met: damage, a gone name
            if (member.inMemory()) {
              out.write(member.bytes());
            } else {
              try (InputStream in = reader.openVerified(member.name())) {
                in.transferTo(out);
              }
            }
            out.flush();
            if (out.checkError()) {
              throw new OutputClosed();
            }
          });
    } catch (OutputClosed e) {
      // nothing more to write to
    }
  }
}
