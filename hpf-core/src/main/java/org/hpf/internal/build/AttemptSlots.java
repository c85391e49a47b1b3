package org.hpf.internal.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Which part ids an attempt may use where attempts write their parts in place (an object store,
 * where no rename hands them over). Each split's range is cut into slots; an attempt claims the
 * first free slot by creating its claim object, which the store creates only where none exists.
 * So two attempts of one split (a retry, a speculative twin, a restarted ApplicationMaster's)
 * never write the same part, and a part an attempt that died left behind never blocks the next.
 */
final class AttemptSlots {
  static final String DIR = "slots";

  private AttemptSlots() {}

  /**
   * Claims a slot of {@code split} for {@code attempt} below {@code staging}; returns its number.
   *
   * @throws IOException when every slot is taken: more attempts ran than the job set ids aside
   *     for ({@link JobSettings#ATTEMPT_SLOTS})
   */
  static int claim(ArchiveStorage staging, int split, TaskAttemptID attempt, int slots)
      throws IOException {
    byte[] claimant = attempt.toString().getBytes(StandardCharsets.UTF_8);
    for (int slot = 0; slot < slots; slot++) {
      try (ArchiveOutput out = staging.create(name(split, slot), 0)) {
        out.stream().write(claimant);
      } catch (FileAlreadyExistsException e) {
        continue; // another attempt's
      }
      return slot;
    }
    throw new IOException("all " + slots + " attempt slots of split " + split + " are taken: "
        + "more attempts of one task ran than the job set part ids aside for; rerun the job with "
        + "a higher " + JobSettings.ATTEMPT_SLOTS);
  }

  static String name(int split, int slot) {
    return DIR + "/split-" + split + "-" + slot;
  }
}
