package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.hpf.MemberAccess;
import org.hpf.internal.io.ArchiveOutput;

/**
 * Appends records to a journal (docs/FORMAT.md, "Journal"). Thread-safe: merge threads append
 * batches, each batch is written and synced as a unit.
 *
 * <p>Every batch is synced ({@code hsync}), not only flushed: a journal record is what recovery
 * commits, so it must never outlive, in a power loss, the part bytes it points to (which the
 * merge thread syncs first). The header is synced before any record, so a journal whose header
 * did not survive holds nothing.
 */
public final class JournalWriter implements AutoCloseable {
  private final ArchiveOutput file;

  private final JournalHeader header;
  /**
   * The failure of an earlier write or sync, after which nothing more is appended: that write
   * may have left part of a record, which no later record may follow.
   */
  private IOException failed;

  public JournalWriter(ArchiveOutput file, ArchiveId id, JournalHeader header)
      throws IOException {
    this.header = header;
    this.file = file;
    file.stream().write(FileHeader.bytes(FileKind.JOURNAL, id));
    file.stream().write(header.toBytes());
    file.sync();
  }

  /** Writes the batch and syncs it (the parts it points into must be synced first). */
  public synchronized void append(List<JournalEntry> batch) throws IOException {
    if (batch.isEmpty()) {
      return;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(batch.size() * 128);
    for (JournalEntry entry : batch) {
      bytes.write(encode(entry));
    }
    writeAndSync(bytes.toByteArray());
  }

  /**
   * Journals access class {@code id} (written and synced at once): it precedes every record
   * that uses it, whichever thread journals that record.
   */
  public synchronized void appendAccess(int id, MemberAccess access) throws IOException {
    writeAndSync(encodeAccess(id, access));
  }

  private void writeAndSync(byte[] records) throws IOException {
    if (failed != null) {
      throw new IOException("the journal cannot be appended to: an earlier write failed ("
          + failed + ")", failed);
    }
    try {
      file.stream().write(records);
      file.sync();
    } catch (IOException e) {
      failed = e;
      throw e;
    }
  }

  static byte[] encode(JournalEntry entry) throws IOException {
    byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
    int payload = 2 + name.length + IndexRecord.SIZE + 8 + 2;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload + 8);
    DataOutputStream data = new DataOutputStream(bytes);
    data.writeInt(payload);
    data.writeShort(name.length);
    data.write(name);
    data.write(entry.record().toBytes());
    data.writeLong(entry.mtimeMillis());
    data.writeShort(entry.record().access());
    return sealed(bytes);
  }

  /**
   * An access record: NameLength {@link JournalReader#ACCESS_MARK} (no name is that long), the
   * id, owner, group and permission.
   */
  static byte[] encodeAccess(int id, MemberAccess access) throws IOException {
    byte[] owner = access.owner().getBytes(StandardCharsets.UTF_8);
    byte[] group = access.group().getBytes(StandardCharsets.UTF_8);
    int payload = 2 + 2 + 2 + owner.length + 2 + group.length + 2;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload + 8);
    DataOutputStream data = new DataOutputStream(bytes);
    data.writeInt(payload);
    data.writeShort(JournalReader.ACCESS_MARK);
    data.writeShort(id);
    data.writeShort(owner.length);
    data.write(owner);
    data.writeShort(group.length);
    data.write(group);
    data.writeShort(access.mode());
    return sealed(bytes);
  }

  /** The framed record followed by its CRC32C. */
  private static byte[] sealed(ByteArrayOutputStream bytes) throws IOException {
    byte[] framed = bytes.toByteArray();
    new DataOutputStream(bytes).writeInt(Checksums.crc32c(framed, 0, framed.length));
    return bytes.toByteArray();
  }

  @Override
  public synchronized void close() throws IOException {
    file.sync(); // a closed journal may be renamed into place (a job task's commit)
    file.close();
  }

  public JournalHeader header() {
    return header;
  }
}
