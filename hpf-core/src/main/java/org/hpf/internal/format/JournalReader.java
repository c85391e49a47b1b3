package org.hpf.internal.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.io.ArchiveInput;

/**
 * Reads a journal back. A last record that is cut short or fails its checksum is a torn write
 * and is dropped; so is one followed only by zero bytes (a power loss can leave a file's length
 * on disk without its last data). A bad record with other bytes after it is corruption.
 */
public final class JournalReader {
  /** What the journal held, and whether a torn tail was dropped. */
  public record Contents(ArchiveId archiveId, JournalHeader header, List<JournalEntry> entries,
      boolean tornTail, long validLength) {}

  /** Bytes before the first record. */
  public static final int PREAMBLE = FileHeader.SIZE + JournalHeader.SIZE;

  private JournalReader() {}

  /** Receives journal records in order. */
  @FunctionalInterface
  public interface Visitor {
    void entry(JournalEntry entry) throws IOException;

    /** An access class the change introduced (journals of version 4), before its first use. */
    default void access(int id, MemberAccess access) throws IOException {}
  }

  /** NameLength of an access record (version 4): no member name is this long. */
  public static final int ACCESS_MARK = 0xFFFF;
  /** Payload of the smallest access record: mark, id, two empty names, permission. */
  private static final int ACCESS_MINIMUM = 2 + 2 + 2 + 2 + 2;

  /** What a scan found: everything but the records, which went to the visitor. */
  public record Scan(ArchiveId archiveId, JournalHeader header, long entries, boolean tornTail,
      long validLength) {}

  /** Reads every record into memory (small journals, tests). */
  public static Contents read(ArchiveInput in, String file, ArchiveId id) throws IOException {
    List<JournalEntry> entries = new ArrayList<>();
    Scan scan = scan(in, file, id, entries::add);
    return new Contents(scan.archiveId(), scan.header(), entries, scan.tornTail(),
        scan.validLength());
  }

  /**
   * True when the journal's header never became durable: the file is shorter than its header, or
   * the header is damaged and every byte after it is zero. The writer syncs the header before
   * its first record, so such a journal holds nothing to recover.
   */
  public static boolean headerIsTorn(ArchiveInput in, String file) throws IOException {
    long length = in.length();
    if (length < PREAMBLE) {
      return true;
    }
    try {
      ByteBuffer head = ByteBuffer.wrap(in.readFully(0, PREAMBLE));
      FileHeader.check(head, file, FileKind.JOURNAL, null);
      JournalHeader.read(head, file, FileHeader.version(head, 0));
      return false;
    } catch (org.hpf.HpfException e) {
      return zerosOnly(in, PREAMBLE, length);
    }
  }

  /**
   * Streams the journal's records to {@code visitor}, one at a time: memory does not grow with
   * the journal.
   */
  public static Scan scan(ArchiveInput in, String file, ArchiveId id, Visitor visitor)
      throws IOException {
    long length = in.length();
    int preamble = PREAMBLE;
    if (length < preamble) {
      // The journal's own header was never flushed: nothing was journaled.
      throw new CorruptArchiveException(file, length, "journal shorter than its header");
    }
    ByteBuffer head = ByteBuffer.wrap(in.readFully(0, preamble));
    ArchiveId archiveId = FileHeader.check(head, file, FileKind.JOURNAL, id);
    int version = FileHeader.version(head, 0);
    JournalHeader header = JournalHeader.read(head, file, version);
    long[] count = {0};
    SequentialInput input = new SequentialInput(in, preamble, length, 1 << 16);
    long at = preamble;
    byte[] four = new byte[4];
    while (at < length) {
      if (length - at < 4) {
        return new Scan(archiveId, header, count[0], true, at);
      }
      input.readFully(four, 0, 4);
      int payload = ByteBuffer.wrap(four).getInt();
      int idBytes = version >= 4 ? 2 : 0;
      int minimum = 2 + IndexRecord.SIZE + 8 + idBytes;
      boolean fits = payload >= minimum && payload <= minimum + MemberNames.MAX_BYTES
          || version >= 4 && payload >= ACCESS_MINIMUM
              && payload <= ACCESS_MINIMUM + 2 * 0xFFFF;
      if (!fits) {
        return torn(in, archiveId, header, count[0], at, length, at + 4, file,
            "impossible record length " + payload);
      }
      long end = at + 4 + payload + 4;
      if (end > length) {
        if (length - at >= 6) {
          byte[] two = new byte[2];
          input.readFully(two, 0, 2);
          checkNothingFollows(in, at, length, ((two[0] & 0xFF) << 8) | (two[1] & 0xFF),
              version, file);
        }
        return new Scan(archiveId, header, count[0], true, at);
      }
      byte[] record = new byte[4 + payload + 4];
      System.arraycopy(four, 0, record, 0, 4);
      input.readFully(record, 4, payload + 4);
      ByteBuffer buf = ByteBuffer.wrap(record);
      int stored = buf.getInt(4 + payload);
      buf.position(4);
      int nameLength = buf.getShort() & 0xFFFF;
      if (stored != Checksums.crc32c(record, 0, 4 + payload)) {
        checkNothingFollows(in, at, length, nameLength, version, file);
        return torn(in, archiveId, header, count[0], at, length, end, file,
            "journal record checksum mismatch");
      }
      if (version >= 4 && nameLength == ACCESS_MARK) {
        visitor.access(buf.getShort() & 0xFFFF, access(buf, 4 + payload, file, at));
        at = end;
        continue;
      }
      if (2 + nameLength + IndexRecord.SIZE + 8 + idBytes != payload) {
        throw new CorruptArchiveException(file, at, "journal record lengths disagree");
      }
      String name = new String(record, 6, nameLength, StandardCharsets.UTF_8);
      IndexRecord indexRecord = IndexRecord.read(record, 6 + nameLength, file, at);
      if (indexRecord.isTombstone() && version < 3) {
        throw new CorruptArchiveException(file, at, "deletion in a journal of version " + version);
      }
      long mtime = buf.getLong(6 + nameLength + IndexRecord.SIZE);
      if (version >= 4) {
        int accessId = buf.getShort(6 + nameLength + IndexRecord.SIZE + 8) & 0xFFFF;
        if (indexRecord.isTombstone() && accessId != 0) {
          throw new CorruptArchiveException(file, at, "deletion with access id " + accessId);
        }
        indexRecord = indexRecord.withAccess(accessId);
      }
      visitor.entry(new JournalEntry(name, indexRecord, mtime));
      count[0]++;
      at = end;
    }
    return new Scan(archiveId, header, count[0], false, at);
  }

  /**
   * A bad record is a torn write only if it is the last one. Its payload length says where it
   * ends, but it may be the damaged field: a torn write leaves a prefix of a genuine record, whose
   * name length agrees with its payload length, so a record whose name length says it ends before
   * the end of the file is followed by further bytes, whatever its payload length claims (unless
   * they are all zero: a torn write's prefix followed by blocks never written).
   */
  /**
   * Checks the id, names and permission of an access record whose checksum matched; the
   * buffer is at its owner's length, {@code end} where its checksum starts.
   */
  private static MemberAccess access(ByteBuffer buf, int end, String file, long at)
      throws CorruptArchiveException {
    try {
      String owner = string16(buf);
      String group = string16(buf);
      int mode = buf.getShort() & 0xFFFF;
      if (buf.position() != end || (mode & ~MemberAccess.MODE_BITS) != 0) {
        throw new CorruptArchiveException(file, at, "bad access record (mode 0"
            + Integer.toOctalString(mode) + ")");
      }
      return new MemberAccess(owner, group, mode);
    } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
      throw new CorruptArchiveException(file, at, "access record lengths disagree");
    }
  }

  private static String string16(ByteBuffer buf) {
    byte[] bytes = new byte[buf.getShort() & 0xFFFF];
    buf.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Where the record at {@code at} ends by its inner lengths (a name's, or an access record's
   * owner's and group's as far as the file holds them), or {@code length} when unknown.
   */
  private static long innerEnd(ArchiveInput in, long at, long length, int nameLength,
      int version) throws IOException {
    if (version < 4) {
      return at + 4 + 2 + nameLength + IndexRecord.SIZE + 8 + 4;
    }
    if (nameLength != ACCESS_MARK) {
      return at + 4 + 2 + nameLength + IndexRecord.SIZE + 8 + 2 + 4;
    }
    long ownerAt = at + 4 + 2 + 2;
    if (ownerAt + 2 > length) {
      return length;
    }
    long groupAt = ownerAt + 2 + uint16(in, ownerAt);
    if (groupAt + 2 > length) {
      return length;
    }
    return groupAt + 2 + uint16(in, groupAt) + 2 + 4;
  }

  private static int uint16(ArchiveInput in, long at) throws IOException {
    byte[] two = in.readFully(at, 2);
    return (two[0] & 0xFF) << 8 | (two[1] & 0xFF);
  }

  private static void checkNothingFollows(ArchiveInput in, long at, long length, int nameLength,
      int version, String file) throws IOException {
    long nameEnd = innerEnd(in, at, length, nameLength, version);
    if (nameEnd < length && !zerosOnly(in, nameEnd, length)) {
      throw new CorruptArchiveException(file, at, "damaged journal record (its lengths disagree "
          + "or its checksum fails) before the journal's last record");
    }
  }

  private static Scan torn(ArchiveInput in, ArchiveId archiveId, JournalHeader header,
      long entries, long at, long length, long end, String file, String problem)
      throws IOException {
    if (end < length && !zerosOnly(in, end, length)) {
      throw new CorruptArchiveException(file, at, problem + " before the journal's last record");
    }
    return new Scan(archiveId, header, entries, true, at);
  }

  /** True when every byte of {@code [from, to)} is zero. */
  private static boolean zerosOnly(ArchiveInput in, long from, long to) throws IOException {
    byte[] chunk = new byte[(int) Math.min(1 << 16, Math.max(0, to - from))];
    for (long at = from; at < to; at += chunk.length) {
      int n = (int) Math.min(chunk.length, to - at);
      in.readFully(at, chunk, 0, n);
      for (int i = 0; i < n; i++) {
        if (chunk[i] != 0) {
          return false;
        }
      }
    }
    return true;
  }
}
