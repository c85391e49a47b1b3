package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.hpf.internal.io.ArchiveOutput;

/**
 * Writes a names segment (docs/FORMAT.md, "Names") block by block; entries must arrive in
 * {@link MemberNames#ORDER} without repeats. Single use: {@link #finish()} seals and closes it.
 */
public final class NamesFileWriter implements AutoCloseable {
  private static final int BLOCK_BYTES = 64 * 1024;

  private final ArchiveOutput file;
  private final ChecksummedOutput out;
  private final ByteArrayOutputStream block = new ByteArrayOutputStream(BLOCK_BYTES + 8192);
  private final DataOutputStream blockData = new DataOutputStream(block);
  private int blockCount;
  private long total;
  private String previous;
  private boolean finished;

  public NamesFileWriter(ArchiveOutput file, ArchiveId id) throws IOException {
    this.file = file;
    this.out = new ChecksummedOutput(new java.io.BufferedOutputStream(file.stream(), 1 << 16));
    FileHeader.write(out.data(), FileKind.NAMES, id);
  }

  public void add(NameEntry entry) throws IOException {
    String name = entry.name();
    if (previous != null && MemberNames.compare(previous, name) >= 0) {
      throw new IllegalArgumentException("names out of order: '" + previous + "' then '"
          + name + "'");
    }
    previous = name;
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    EntryLocation location = entry.location();
    blockData.writeByte(entry.deleted() ? NameEntry.OP_DELETED
        : location != null ? NameEntry.OP_PRESENT : NameEntry.OP_PRESENT_UNLOCATED);
    blockData.writeShort(bytes.length);
    blockData.write(bytes);
    blockData.writeLong(entry.length());
    blockData.writeLong(entry.mtimeMillis());
    if (location != null && !entry.deleted()) {
      IndexRecord.checkLimits(location.part(), location.offset(), location.entryLength(), 0);
      ByteBuffer encoded = ByteBuffer.allocate(EntryLocation.SIZE);
      location.writeTo(encoded);
      blockData.write(encoded.array());
    }
    if (!entry.deleted()) {
      blockData.writeShort(entry.access());
    }
    blockCount++;
    total++;
    if (block.size() >= BLOCK_BYTES) {
      writeBlock();
    }
  }

  private void writeBlock() throws IOException {
    if (blockCount == 0) {
      return;
    }
    ByteArrayOutputStream framed = new ByteArrayOutputStream(block.size() + 12);
    DataOutputStream data = new DataOutputStream(framed);
    data.writeInt(blockCount);
    data.writeInt(block.size());
    block.writeTo(data);
    byte[] bytes = framed.toByteArray();
    out.write(bytes);
    out.data().writeInt(Checksums.crc32c(bytes, 0, bytes.length));
    block.reset();
    blockCount = 0;
  }

  public long count() {
    return total;
  }

  /** Writes the last block, the end marker, the total and the footer; syncs and closes. */
  public void finish() throws IOException {
    writeBlock();
    out.data().writeInt(0);
    out.data().writeLong(total);
    out.writeFooter();
    out.flush();
    file.sync();
    finished = true;
    file.close();
  }

  @Override
  public void close() throws IOException {
    if (!finished) {
      file.close();
    }
  }
}
