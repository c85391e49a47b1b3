package org.hpf.internal.format;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.ArchiveInput;

/**
 * Streams the entries of a names segment block by block; each block is checked before its
 * entries are returned, and the file's footer when the last block has been read. Holds one block
 * in memory. Given the {@link NamesBlocks} of the segment, it starts a listing at the block that
 * holds its first name and takes blocks read lately from there; it then checks each block it
 * reads and the footer's count, but not the footer's checksum of the whole file, which only a
 * reader of every byte can compute.
 */
public final class NamesFileReader implements Iterator<NameEntry>, AutoCloseable {
  /** Op, name length, length and mtime: the bytes of an entry with an empty name. */
  private static final int ENTRY_MIN = 1 + 2 + 8 + 8;
  private final ArchiveInput in;
  private final String file;
  private static final int BUFFER = 1 << 16;
  private final CRC32C fileCrc = new CRC32C();
  private final ArrayDeque<NameEntry> block = new ArrayDeque<>();
  private final int version;
  /** What readers of this segment learned of its blocks, or null. */
  private final NamesBlocks blocks;
  private SequentialInput raw;
  private DataInputStream data;
  /** Every byte from the header on passed {@link #fileCrc}: the footer's checksum is checked. */
  private boolean whole;
  private long returned;
  private boolean ended;

  public NamesFileReader(ArchiveInput in, String file, ArchiveId id) throws IOException {
    this(in, file, id, null, null);
  }

  /**
   * A reader that shares what it learns of the segment's blocks in {@code blocks} and, where
   * they tell, starts at the last block whose first name sorts before {@code from} (null or "":
   * at the first block). Every entry before {@code from} may or may not be returned.
   */
  public NamesFileReader(ArchiveInput in, String file, ArchiveId id, NamesBlocks blocks,
      String from) throws IOException {
    this.in = in;
    this.file = file;
    this.blocks = blocks;
    NamesBlocks.Block start = blocks == null ? null : blocks.startFor(from);
    if (start != null) {
      this.version = blocks.version();
      this.returned = start.entriesBefore();
      jumpTo(start.offset());
      return;
    }
    this.whole = true;
    this.raw = new SequentialInput(in, 0, in.length(), BUFFER);
    this.data = new DataInputStream(new CheckedInputStream(raw, fileCrc));
    byte[] header = new byte[FileHeader.SIZE];
    try {
      readFully(header);
      FileHeader.check(ByteBuffer.wrap(header), file, FileKind.NAMES, id);
      this.version = FileHeader.version(ByteBuffer.wrap(header), 0);
      if (blocks != null) {
        blocks.versionRead(version);
      }
    } catch (IOException | RuntimeException e) {
      try {
        in.close(); // the caller gets no reader to close
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Reads on from {@code offset}, a block's start, where the file checksum cannot follow. */
  private void jumpTo(long offset) {
    whole = false;
    raw = new SequentialInput(in, offset, in.length(), BUFFER);
    data = new DataInputStream(raw);
  }

  private void readFully(byte[] bytes) throws IOException {
    readFully(bytes, 0, bytes.length);
  }

  private void readFully(byte[] bytes, int offset, int length) throws IOException {
    try {
      data.readFully(bytes, offset, length);
    } catch (EOFException e) {
      throw new CorruptArchiveException(file, raw.position(), "names file is truncated");
    }
  }

  private int readInt() throws IOException {
    byte[] four = new byte[4];
    readFully(four);
    return ByteBuffer.wrap(four).getInt();
  }

  private void nextBlock() throws IOException {
    long at = raw.position();
    NamesBlocks.Cached cached = blocks == null ? null : blocks.recent(at);
    if (cached != null) {
      block.addAll(cached.entries());
      jumpTo(cached.block().end());
      return;
    }
    int count = readInt();
    if (count == 0) {
      finish();
      return;
    }
    int length = readInt();
    if (count < 0 || length < (long) ENTRY_MIN * count || length > (1 << 26)
        || length > in.length() - raw.position()) { // never allocate past the file's end
      throw new CorruptArchiveException(file, at, "bad names block: " + count + " names in "
          + length + " bytes");
    }
    byte[] bytes = new byte[8 + length];
    ByteBuffer.wrap(bytes).putInt(count).putInt(length);
    readFully(bytes, 8, length);
    int stored = readInt();
    int computed = Checksums.crc32c(bytes, 0, bytes.length);
    if (stored != computed) {
      throw new CorruptArchiveException(file, at, String.format(
          "names block checksum 0x%08X, computed 0x%08X", stored, computed));
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes, 8, length);
    for (int i = 0; i < count; i++) {
      if (buf.remaining() < ENTRY_MIN) {
        throw new CorruptArchiveException(file, at, "names block ends inside an entry");
      }
      int op = buf.get() & 0xFF;
      int n = buf.getShort() & 0xFFFF;
      boolean located = op == NameEntry.OP_PRESENT && version > 1;
      boolean known = op == NameEntry.OP_PRESENT || op == NameEntry.OP_DELETED
          || (op == NameEntry.OP_PRESENT_UNLOCATED && version > 1);
      boolean withAccess = op != NameEntry.OP_DELETED && version >= 3;
      if (n + 16 + (located ? EntryLocation.SIZE : 0) + (withAccess ? 2 : 0) > buf.remaining()
          || !known) {
        throw new CorruptArchiveException(file, at, "bad names entry (op " + op + ", " + n
            + " name bytes)");
      }
      String name = new String(bytes, buf.position(), n, StandardCharsets.UTF_8);
      buf.position(buf.position() + n);
      long memberLength = buf.getLong();
      long mtime = buf.getLong();
      boolean deleted = op == NameEntry.OP_DELETED;
      if (deleted ? memberLength != 0 || mtime != 0 : memberLength < 0) {
        // A deletion is exactly Op 2 with Length and MTimeMillis 0; no member is shorter than 0.
        throw new CorruptArchiveException(file, at, "bad names entry for '" + name + "' (op "
            + op + ", length " + memberLength + ", mtime " + mtime + ")");
      }
      EntryLocation location = located ? location(buf, name, n, memberLength, at) : null;
      int access = withAccess ? buf.getShort() & 0xFFFF : 0;
      block.add(new NameEntry(name, deleted, memberLength, mtime, location, access));
    }
    if (buf.hasRemaining()) {
      throw new CorruptArchiveException(file, at, "names block has trailing bytes");
    }
    if (blocks != null && !block.isEmpty()) {
      blocks.learned(new NamesBlocks.Block(at, raw.position(), block.peek().name(), returned),
          new java.util.ArrayList<>(block));
    }
  }

  /**
   * Reads and checks a version 2 location: a codec's flags, and an entry length that holds the
   * entry's header and trailer around the stored bytes (exactly the member's length of them
   * when raw, and then perhaps its chunk checksums).
   */
  private EntryLocation location(ByteBuffer buf, String name, int nameBytes, long length,
      long at) throws CorruptArchiveException {
    EntryLocation location = EntryLocation.read(buf);
    int part = location.part();
    int flags = location.flags();
    long offset = location.offset();
    long entryLength = location.entryLength();
    long framing = EntryHeader.size(nameBytes) + EntryHeader.TRAILER_SIZE;
    Codec codec = Codec.ofFlags(flags);
    boolean fits = codec == Codec.RAW
        ? entryLength == framing + length
            || entryLength == framing + length + ChunkChecksums.tableBytes(length)
        : entryLength >= framing && entryLength - framing <= length;
    if (codec == null || (flags & ~Codec.MASK) != 0 || part > IndexRecord.MAX_PART || !fits) {
      throw new CorruptArchiveException(file, at, "bad location of '" + name + "' (part "
          + part + ", flags " + flags + ", offset " + offset + ", entry length " + entryLength
          + ")");
    }
    return location;
  }

  private void finish() throws IOException {
    byte[] total = new byte[8];
    readFully(total);
    long count = ByteBuffer.wrap(total).getLong();
    if (count != returned + block.size()) {
      throw new CorruptArchiveException(file, raw.position() - 8, "names file says " + count
          + " names but holds " + (returned + block.size()));
    }
    int magic = readInt();
    int computed = (int) fileCrc.getValue();
    byte[] crc = new byte[4];
    try {
      raw.readFully(crc, 0, 4);
    } catch (EOFException e) {
      throw new CorruptArchiveException(file, raw.position(), "names file is truncated");
    }
    int stored = ByteBuffer.wrap(crc).getInt();
    if (magic != FileFooter.MAGIC || whole && stored != computed) {
      throw new CorruptArchiveException(file, raw.position() - 8, "bad names footer");
    }
    if (raw.position() != in.length()) {
      throw new CorruptArchiveException(file, raw.position(), "bytes after the footer");
    }
    ended = true;
  }

  @Override
  public boolean hasNext() {
    try {
      while (block.isEmpty() && !ended) {
        nextBlock();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return !block.isEmpty();
  }

  @Override
  public NameEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    returned++;
    return block.poll();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
