package org.hpf.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * A writer process for {@link StalledWriterTest}: opens the archive for an append and adds
 * members (journaled in small batches), says so once some are journaled, goes on until told to
 * finish, then commits. Reports as {@code hpf} does: "committed N members" on stdout and exit
 * code 0, or {@code hpf: <error>} on stderr and the error's exit code.
 *
 * <p>Arguments: archive URI, control directory (it creates "journaled" there and waits for
 * "finish").
 */
public final class StallingWriter {
  private StallingWriter() {}

  public static void main(String[] args) {
    Path control = Path.of(args[1]);
    int added = 0;
    try (ArchiveWriter writer = ArchiveWriter.open(new Configuration(),
        new org.apache.hadoop.fs.Path(args[0]),
        WriterOptions.builder().operation("append").settings(s -> s.threads(1))
            .journalBatch(4, 1 << 20).build())) {
      while (!Files.exists(control.resolve("finish"))) {
        writer.add(member(added), content(added), 0);
        added++;
        if (added == 20) {
          Files.writeString(control.resolve("journaled"), "");
        }
        Thread.sleep(20); // keeps the append slow enough to be stopped mid-way
      }
      long generation = writer.commit().generation();
      System.out.println("committed " + added + " members in generation " + generation);
    } catch (Exception e) {
      System.err.println("hpf: " + ErrorHandler.message(e));
      System.exit(ErrorHandler.exitCodeOf(e));
    }
    System.exit(ExitCodes.OK);
  }

  static String member(int i) {
    return "stalled/m-" + i;
  }

  static byte[] content(int i) {
    return ("member " + i).getBytes(StandardCharsets.UTF_8);
  }
}
