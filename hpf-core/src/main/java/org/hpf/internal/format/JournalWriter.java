package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
    file.stream().write(bytes.toByteArray());
    file.sync();
  }

  static byte[] encode(JournalEntry entry) throws IOException {
    byte[] name = entry.name().getBytes(StandardCharsets.UTF_8);
    int payload = 2 + name.length + IndexRecord.SIZE + 8;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload + 8);
    DataOutputStream data = new DataOutputStream(bytes);
    data.writeInt(payload);
    data.writeShort(name.length);
    data.write(name);
    data.write(entry.record().toBytes());
    data.writeLong(entry.mtimeMillis());
    byte[] framed = bytes.toByteArray();
    data.writeInt(Checksums.crc32c(framed, 0, framed.length));
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
