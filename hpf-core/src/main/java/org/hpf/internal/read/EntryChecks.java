package org.hpf.internal.read;

import java.io.EOFException;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.ArchiveInput;

/**
 * The checks of a member's bytes that every way of reading them shares (a get, a stream, a
 * seekable stream of {@code hpf://}), so that each reports damage in the same words.
 */
public final class EntryChecks {
  private EntryChecks() {}

  /**
   * The part ended inside an entry its length covered. Where the store gave that length when
   * the part was opened, the part was cut while open; where it is the length the archive
   * records (an object store), the part was shorter than that all along. One line that names
   * the member and where its entry starts.
   *
   * @param member how to name the member: its name and archive, or its path
   */
  public static CorruptArchiveException truncated(String member, ArchiveInput part,
      long entryOffset, EOFException e) {
    return new CorruptArchiveException(member, "its entry at offset " + entryOffset + " of "
        + part.name() + " runs past the end of the part: the part " + (part.lengthAsRecorded()
            ? "is shorter than the " + part.length() + " bytes the archive records: it is"
                + " truncated"
            : "was truncated after this reader opened it"), e);
  }

  /*
   * Damage to a member's bytes is reported in one form however they are read (verify, a get,
   * a stream, hpf://): the part, the offset where the member's entry starts, and the member by
   * its name in the archive.
   */

  /** Fails unless the CRC32C computed over a member's bytes is the one its entry stores. */
  public static void checkContent(int computed, int stored, String file, long entryOffset,
      String name) throws CorruptArchiveException {
    if (computed != stored) {
      throw new CorruptArchiveException(file, entryOffset, String.format(
          "content checksum of '%s' is 0x%08X, computed 0x%08X", name, stored, computed));
    }
  }

  /**
   * Fails unless the CRC32C computed over a chunk of a member (its bytes {@code from} to
   * {@code to}) is the one its entry, at {@code entryOffset} of the part, stores.
   */
  public static void checkChunk(int computed, int stored, String file, long entryOffset,
      String name, long from, long to) throws CorruptArchiveException {
    if (computed != stored) {
      throw new CorruptArchiveException(file, entryOffset, String.format(
          "chunk checksum of '%s' bytes %d to %d is 0x%08X, computed 0x%08X", name, from, to,
          stored, computed));
    }
  }
}
