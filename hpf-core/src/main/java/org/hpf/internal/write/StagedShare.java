package org.hpf.internal.write;

import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * One finished share of a staged change, as {@link StagedChange#commit} takes it: its journal,
 * the parts that wrote it (already moved into the archive directory) and what the change's
 * driver listed for it. The commit publishes a share only if its journal holds exactly that
 * many members and bytes and every part it points into is one of these, byte-identical in
 * length and footer checksum: so one share's journal can never be paired with another's parts.
 *
 * @param name who wrote the share (a task attempt), for messages
 * @param parts the share's sealed parts by id
 * @param files how many members the journal must hold
 * @param bytes their original bytes
 */
public record StagedShare(String name, Path journal, Map<Integer, PartSeal> parts, long files,
    long bytes) {

  /** A sealed part as its writer saw it: its length and the checksum its footer stores. */
  public record PartSeal(long length, int checksum) {}
}
