package org.hpf.crash;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveLockedException;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * A writer process for {@link TwoWritersRaceTest}: for each round it waits for the round's start
 * file, opens the archive for an append and reports "won" (then, once told, adds a member of its
 * own and commits) or "locked".
 *
 * <p>Arguments: archive URI, number of rounds, control directory, contender name.
 */
public final class LockContender {
  private LockContender() {}

  public static void main(String[] args) throws Exception {
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Path control = Path.of(args[2]);
    String me = args[3];
    Configuration conf = new Configuration();
    for (int round = 0; round < rounds; round++) {
      await(control.resolve("go-" + round));
      ArchiveWriter writer;
      try {
        writer = ArchiveWriter.open(conf, archive, WriterOptions.builder()
            .settings(s -> s.threads(1)).build());
      } catch (ArchiveLockedException e) {
        report(control, "result-" + me + "-" + round, "locked");
        continue;
      }
      try (writer) {
        report(control, "result-" + me + "-" + round, "won");
        await(control.resolve("commit-" + round));
        writer.add(me + "/round-" + round, (me + " " + round).getBytes(StandardCharsets.UTF_8),
            0);
        writer.commit();
      }
      report(control, "committed-" + round, me);
    }
  }

  private static void await(Path file) throws InterruptedException {
    while (!Files.exists(file)) {
      Thread.sleep(1);
    }
  }

  /** Writes a report file whole: under a temporary name, then moved into place. */
  static void report(Path control, String name, String text) throws java.io.IOException {
    Path temporary = control.resolve("." + name);
    Files.writeString(temporary, text);
    Files.move(temporary, control.resolve(name));
  }
}
