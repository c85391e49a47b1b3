package org.hpf.crash;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ConcurrentCommitException;
import org.hpf.LockLostException;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * A writer process for {@link TwoWritersRaceTest} on a store whose lock does not exclude (an
 * object store): each round it waits to be told to open the archive, plainly or breaking the
 * lock of the other contender, which opened first; then, once told, both add a member of their
 * own and commit at the same moment. It reports "committed", "conflict" (another writer
 * committed first), "lock lost" (its lock was broken, and it committed nothing) or the error.
 *
 * <p>Arguments: configuration file, archive URI, number of rounds, control directory, name.
 */
public final class CommitContender {
  private CommitContender() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.addResource(new org.apache.hadoop.fs.Path(args[0]));
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Path control = Path.of(args[3]);
    String me = args[4];
    for (int round = 0; round < rounds; round++) {
      Path open = control.resolve("open-" + round + "-" + me);
      await(open);
      boolean steal = Files.readString(open).equals("steal");
      ArchiveWriter writer;
      try {
        writer = ArchiveWriter.open(conf, archive, WriterOptions.builder()
            .settings(s -> s.threads(1).breakLock(steal)).build());
      } catch (Exception e) {
        LockContender.report(control, "opened-" + me + "-" + round, "error: " + e);
        return;
      }
      String result;
      try (writer) {
        LockContender.report(control, "opened-" + me + "-" + round, "ok");
        await(control.resolve("commit-" + round));
        writer.add(me + "/round-" + round, (me + " " + round).getBytes(StandardCharsets.UTF_8),
            0);
        writer.commit();
        result = "committed";
      } catch (ConcurrentCommitException e) {
        result = "conflict";
      } catch (LockLostException e) {
        result = "lock lost";
      } catch (Exception e) {
        result = "error: " + e;
      }
      LockContender.report(control, "result-" + me + "-" + round, result);
      LockContender.report(control, "closed-" + me + "-" + round, "");
    }
  }

  private static void await(Path file) throws InterruptedException {
    while (!Files.exists(file)) {
      Thread.sleep(1);
    }
  }
}
