package org.hpf.internal.read;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.hpf.CorruptArchiveException;
import org.hpf.LimitExceededException;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.io.ArchiveInput;

/**
 * Reads a member's entry from its part and checks it against the record and the requested
 * name, so that a get returns the member's exact bytes or throws.
 */
public final class EntryReader {
  /** Only the bounds-checked decompressor: it never reads or writes outside its buffers. */
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  private EntryReader() {}

  /** One positioned read of the whole entry; returns the original bytes. */
  static byte[] readBytes(ArchiveInput part, IndexRecord record, String name, String archive)
      throws IOException {
    String file = part.name();
    if (record.entryLength() > Integer.MAX_VALUE - 64
        || record.originalLength() > Integer.MAX_VALUE - 64) {
      throw new LimitExceededException("'" + name + "' is " + record.originalLength()
          + " bytes, too large for get(): use open()");
    }
    byte[] entry = readEntry(part, record, record.offset(), (int) record.entryLength(), name,
        archive);
    return decode(entry, record, name, file).bytes();
  }

  /** A member's original bytes and the entry header they were checked against. */
  public record Checked(EntryHeader header, byte[] bytes) {}

  /**
   * Checks a whole entry already in memory ({@code entry}, read from {@code file} where
   * {@code record} points) as a get does, header, chunk checksums and content checksum, and
   * returns the original bytes.
   */
  static Checked decode(byte[] entry, IndexRecord record, String name, String file)
      throws CorruptArchiveException {
    EntryHeader header = checkHeader(entry, record, name, file);
    return new Checked(header, original(entry, header, record.offset(), file));
  }

  /**
   * Checks a whole entry met in a sequential pass of its part, at {@code offset} of
   * {@code file}, where no index record says what it should hold: its header checksum, chunk
   * checksums and content checksum. Returns its header (with the member's name) and the
   * original bytes.
   */
  public static Checked decodeAt(byte[] entry, long offset, String file)
      throws CorruptArchiveException {
    EntryHeader header = EntryHeader.read(entry, 0, entry.length, file, offset);
    if (header.entryLength() != entry.length) {
      throw new CorruptArchiveException(file, offset, "entry of '" + header.name() + "' is "
          + entry.length + " bytes where its header says " + header.entryLength());
    }
    return new Checked(header, original(entry, header, offset, file));
  }

  /** The original bytes of a whole entry whose header was read: checked, decompressed. */
  private static byte[] original(byte[] entry, EntryHeader header, long offset, String file)
      throws CorruptArchiveException {
    String name = header.name();
    if (header.chunked()) {
      CheckedMember.checkChunks(entry, header, file, offset, name);
    }
    int storedAt = header.size();
    byte[] original;
    if (header.codec() == Codec.RAW) {
      original = Arrays.copyOfRange(entry, storedAt, storedAt + (int) header.storedLength());
    } else {
      original = new byte[(int) header.originalLength()];
      try {
        int n = LZ4.decompress(entry, storedAt, (int) header.storedLength(), original, 0,
            original.length);
        if (n != original.length) {
          throw new CorruptArchiveException(file, offset, "'" + name
              + "' decompressed to " + n + " bytes, expected " + original.length);
        }
      } catch (LZ4Exception e) {
        throw new CorruptArchiveException(file, "stored bytes of '" + name + "' at offset "
            + offset + " do not decompress", e);
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(original, 0, original.length);
    int expected = ByteBuffer.wrap(entry, entry.length - 4, 4).getInt();
    EntryChecks.checkContent((int) crc.getValue(), expected, file, offset, name);
    return original;
  }

  /** Reads and checks only the entry header (the name is known, so its length is too). */
  static EntryHeader readHeader(ArchiveInput part, IndexRecord record, String name,
      String archive) throws IOException {
    int size = EntryHeader.size(name.getBytes(StandardCharsets.UTF_8).length);
    if (size > record.entryLength()) {
      throw new CorruptArchiveException(part.name(), record.offset(), "entry of '" + name
          + "' is shorter than its header");
    }
    byte[] bytes = readEntry(part, record, record.offset(), size, name, archive);
    if (size != EntryHeader.size(EntryHeader.nameLength(bytes))) {
      // A name of another length: the header read is cut in the wrong place, so read it again.
      throw new OtherName(part.name(), record.offset(), storedName(part, record), name);
    }
    return checkHeader(bytes, record, name, part.name());
  }

  /** The name stored in the entry a record points to, from its checked header. */
  static String storedName(ArchiveInput part, IndexRecord record) throws IOException {
    byte[] fixed = read(part, record.offset(), EntryHeader.FIXED_SIZE - 4, part.name());
    int size = EntryHeader.size(EntryHeader.nameLength(fixed));
    if (size > record.entryLength()) {
      throw new CorruptArchiveException(part.name(), record.offset(), "entry header of "
          + size + " bytes in an entry of " + record.entryLength());
    }
    byte[] bytes = read(part, record.offset(), size, part.name());
    return EntryHeader.read(bytes, 0, size, part.name(), record.offset()).name();
  }

  /** A raw member, read in place: no byte of it is handed out unchecked. */
  static CheckedMember inPlace(ArchiveInput part, IndexRecord record, EntryHeader header,
      String name, String description) {
    return new CheckedMember(part, record.offset(), header, name, description);
  }

  /** A read inside the entry of member {@code name}: if the part ends early, the error says so. */
  private static byte[] readEntry(ArchiveInput part, IndexRecord record, long offset,
      int length, String name, String archive) throws IOException {
    try {
      return part.readFully(offset, length);
    } catch (EOFException e) {
      throw cutShort(part, record, name, archive, e);
    }
  }

  private static CorruptArchiveException cutShort(ArchiveInput part, IndexRecord record,
      String name, String archive, EOFException e) {
    return EntryChecks.truncated("'" + name + "' in " + archive, part, record.offset(), e);
  }

  private static byte[] read(ArchiveInput part, long offset, int length, String file)
      throws IOException {
    try {
      return part.readFully(offset, length);
    } catch (EOFException e) {
      throw new CorruptArchiveException(file, "part file is truncated at the entry at offset "
          + offset, e);
    }
  }

  /**
   * The entry the index led to holds another name: corruption, unless that name has the same
   * 128-bit hash as the requested one, which is then simply not a member ({@link HpfReader}
   * tells the two apart).
   */
  static final class OtherName extends CorruptArchiveException {
    private static final long serialVersionUID = 1L;
    final String stored;

    OtherName(String file, long offset, String stored, String requested) {
      super(file, offset, "entry holds '" + stored + "', the index pointed here for '"
          + requested + "'");
      this.stored = stored;
    }
  }

  private static EntryHeader checkHeader(byte[] entry, IndexRecord record, String name,
      String file) throws CorruptArchiveException {
    EntryHeader header = EntryHeader.read(entry, 0, entry.length, file, record.offset());
    if (!header.name().equals(name)) {
      throw new OtherName(file, record.offset(), header.name(), name);
    }
    if (header.flags() != record.flags() || header.originalLength() != record.originalLength()
        || header.entryLength() != record.entryLength()) {
      throw new CorruptArchiveException(file, record.offset(), "entry header of '" + name
          + "' disagrees with its index record");
    }
    return header;
  }
}
