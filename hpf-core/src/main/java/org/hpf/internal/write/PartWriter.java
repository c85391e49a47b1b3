package org.hpf.internal.write;

import java.io.BufferedOutputStream;
import java.io.IOException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.ChecksummedOutput;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * One part file being written by one merge thread: header, entries, footer. Not thread-safe.
 * States: open (entries may be written) then sealed (footer written, file closed).
 */
final class PartWriter implements AutoCloseable {
  /** Bytes before the first entry: common header and part id. */
  static final int PREAMBLE = FileHeader.SIZE + 4;

  private final int id;
  private final ArchiveOutput file;
  private final ChecksummedOutput out;
  private boolean sealed;

  /** A part that compaction or recovery copies entries into. */
  PartWriter(ArchiveStorage storage, ArchiveId archiveId, int id, long blockSize)
      throws IOException {
    this(storage.create(ArchiveLayout.part(id), blockSize), archiveId, id);
  }

  /** A part that a merge writes new members into ({@link ArchiveStorage#createMergedPart}). */
  static PartWriter merged(ArchiveStorage storage, ArchiveId archiveId, int id, long blockSize)
      throws IOException {
    return new PartWriter(storage.createMergedPart(ArchiveLayout.part(id), blockSize), archiveId,
        id);
  }

  private PartWriter(ArchiveOutput file, ArchiveId archiveId, int id) throws IOException {
    this.id = id;
    this.file = file;
    this.out = new ChecksummedOutput(new BufferedOutputStream(file.stream(), 1 << 17));
    FileHeader.write(out.data(), FileKind.PART, archiveId);
    out.data().writeInt(id);
  }

  int id() {
    return id;
  }

  /** Where the next entry starts. */
  long position() {
    return out.position();
  }

  /** True when no entry has been written yet. */
  boolean isEmpty() {
    return out.position() == PREAMBLE;
  }

  ChecksummedOutput output() {
    if (sealed) {
      throw new IllegalStateException("part " + id + " is sealed");
    }
    return out;
  }

  /**
   * Makes every entry written so far durable (hsync), so that journal records pointing at them
   * survive only together with them, a power loss included. The hsync covers the block being
   * written; the part's earlier blocks were synced as they filled ({@link ArchiveOutput#sync}).
   */
  void sync() throws IOException {
    out.flush();
    file.sync();
  }

  /** Writes the footer, syncs and closes; returns the sealed length. */
  long seal() throws IOException {
    out.writeFooter();
    out.flush();
    file.sync();
    file.close();
    sealed = true;
    return out.position();
  }

  @Override
  public void close() throws IOException {
    if (!sealed) {
      file.close();
    }
  }
}
