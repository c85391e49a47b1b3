package org.hpf.internal.read;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.hpf.FileNotInArchiveException;
import org.hpf.internal.format.IndexRecord;

/**
 * What a batch read has for one name: the member's checked bytes, the failure that reading
 * them met (damage: a {@link org.hpf.CorruptArchiveException} naming the member, as a get
 * reports it), the news that the archive has no such member, or, for a member too large for the
 * batch's window, a member read when asked, as a get or an open reads it.
 */
public final class BatchEntry {
  private final String name;
  private final EntryStatus status;
  private final byte[] bytes;
  private final IOException failure;
  /** Set for a member read when asked: the reader and its record. */
  private final HpfReader reader;
  private final IndexRecord record;

  private BatchEntry(String name, EntryStatus status, byte[] bytes, IOException failure,
      HpfReader reader, IndexRecord record) {
    this.name = name;
    this.status = status;
    this.bytes = bytes;
    this.failure = failure;
    this.reader = reader;
    this.record = record;
  }

  static BatchEntry read(EntryStatus status, byte[] bytes) {
    return new BatchEntry(status.name(), status, bytes, null, null, null);
  }

  static BatchEntry failed(String name, IOException failure) {
    return new BatchEntry(name, null, null, failure, null, null);
  }

  static BatchEntry missing(String name, String archive) {
    return failed(name, new FileNotInArchiveException(archive, name));
  }

  /** A member read only when its bytes are asked for. */
  static BatchEntry onDemand(HpfReader reader, IndexRecord record, EntryStatus status) {
    return new BatchEntry(status.name(), status, null, null, reader, record);
  }

  public String name() {
    return name;
  }

  /** False when the archive has no member of this name. */
  public boolean found() {
    return !(failure instanceof FileNotInArchiveException);
  }

  /** Its status, from its checked entry header; throws what reading it met. */
  public EntryStatus status() throws IOException {
    throwFailure();
    return status;
  }

  /** Its bytes, all checked; throws what reading it met. */
  public byte[] bytes() throws IOException {
    throwFailure();
    return bytes != null ? bytes : reader.get(record, name);
  }

  /** A stream of its bytes, each checked before it is returned; throws what reading it met. */
  public InputStream open() throws IOException {
    throwFailure();
    return bytes != null ? new ByteArrayInputStream(bytes) : reader.open(record, name);
  }

  /** Whether its bytes are in memory (else they are read when asked for). */
  public boolean inMemory() {
    return bytes != null;
  }

  private void throwFailure() throws IOException {
    if (failure != null) {
      throw failure;
    }
  }
}
