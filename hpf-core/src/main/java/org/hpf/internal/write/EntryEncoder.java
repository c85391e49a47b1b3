package org.hpf.internal.write;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.Compression;
import org.hpf.MemberAccess;
import org.hpf.SourceException;
import org.hpf.internal.format.ChecksummedOutput;
import org.hpf.internal.format.ChunkChecksums;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameHasher;

/**
 * Reads a source once and writes it as an entry (header, stored bytes, chunk checksums if it is
 * a large raw member, content checksum): members up to {@link WriterOptions#COMPRESS_LIMIT} are
 * read whole and LZ4-compressed when that pays; larger ones are streamed raw. One instance per
 * merge thread.
 */
final class EntryEncoder {
  private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();

  private final Compression compression;
  private final NameHasher hasher;
  private byte[] readBuffer = new byte[64 * 1024];
  private byte[] compressBuffer = new byte[0];

  EntryEncoder(Compression compression, NameHasher hasher) {
    this.compression = compression;
    this.hasher = hasher;
  }

  /** Writes the file {@code source} at the current position of {@code part}. */
  IndexRecord write(Source source, PartWriter part) throws IOException {
    try (InputStream in = open(source)) {
      return write(member(source, in), part);
    }
  }

  /** The member a source file becomes, read from {@code in} (opened by {@link #open}). */
  static Member member(Source source, InputStream in) {
    return new Member(source.name(), source.length(), source.mtimeMillis(), in, true,
        source.path().toString(), source.access());
  }

  /**
   * A member to write: its name, length and modification time, and the stream its bytes come
   * from; with {@code wholeStream}, the stream must end right after {@code length} bytes (a file
   * that grew while it was read is an error). Its access is null where the writer's default
   * applies.
   */
  record Member(String name, long length, long mtimeMillis, InputStream in,
      boolean wholeStream, String origin, MemberAccess access) {
    /** A member of the writer's default access. */
    Member(String name, long length, long mtimeMillis, InputStream in, boolean wholeStream,
        String origin) {
      this(name, length, mtimeMillis, in, wholeStream, origin, null);
    }
  }

  /**
   * Writes {@code member} at the current position of {@code part}; returns its record. Members
   * up to the compression limit are read whole before a byte is written, so a stream that fails
   * leaves the part untouched; a larger member that fails midway leaves a partial entry (see
   * {@link PartWriter#position()}).
   */
  IndexRecord write(Member member, PartWriter part) throws IOException {
    long offset = part.position();
    ChecksummedOutput out = part.output();
    EntryHeader header;
    if (member.length() <= WriterOptions.COMPRESS_LIMIT) {
      header = writeSmall(member, out);
    } else {
      header = writeStreamed(member, out);
    }
    long entryLength = header.entryLength();
    IndexRecord.checkLimits(part.id(), offset, entryLength, header.originalLength());
    if (part.position() - offset != entryLength) {
      throw new IllegalStateException("entry of " + member.origin() + " took "
          + (part.position() - offset) + " bytes, expected " + entryLength);
    }
    return new IndexRecord(hasher.hash(member.name()), part.id(), header.flags(), offset,
        entryLength, header.originalLength(), header.mtimeMillis());
  }

  private EntryHeader writeSmall(Member member, ChecksummedOutput out) throws IOException {
    int length = (int) member.length();
    if (readBuffer.length < length) {
      readBuffer = new byte[Math.max(length, readBuffer.length * 2)];
    }
    InputStream in = member.in();
    int read = in.readNBytes(readBuffer, 0, length);
    if (read != length || (member.wholeStream() && in.read() != -1)) {
      throw changed(member, read);
    }
    CRC32C crc = new CRC32C();
    crc.update(readBuffer, 0, length);
    byte[] stored = readBuffer;
    int storedLength = length;
    Codec codec = Codec.RAW;
    if (compression != Compression.NONE && length > 0) {
      int max = LZ4.maxCompressedLength(length);
      if (compressBuffer.length < max) {
        compressBuffer = new byte[max];
      }
      int compressed = LZ4.compress(readBuffer, 0, length, compressBuffer, 0, max);
      boolean pays = compression == Compression.LZ4
          ? compressed < length
          : compressed <= length - length / 8 && compressed < length;
      if (pays) {
        stored = compressBuffer;
        storedLength = compressed;
        codec = Codec.LZ4;
      }
    }
    EntryHeader header = new EntryHeader(member.name(), codec.id(),
        EntryHeader.layoutFor(codec, length), length, storedLength, member.mtimeMillis());
    out.write(header.toBytes());
    out.write(stored, 0, storedLength);
    if (header.chunked()) {
      ChunkChecksums.Builder chunks = new ChunkChecksums.Builder();
      chunks.update(stored, 0, storedLength);
      out.write(chunks.table());
    }
    out.data().writeInt((int) crc.getValue());
    return header;
  }

  private EntryHeader writeStreamed(Member member, ChecksummedOutput out) throws IOException {
    EntryHeader header = new EntryHeader(member.name(), Codec.RAW.id(),
        EntryHeader.layoutFor(Codec.RAW, member.length()), member.length(), member.length(),
        member.mtimeMillis());
    IndexRecord.checkLimits(0, 0, header.entryLength(), member.length());
    out.write(header.toBytes());
    CRC32C crc = new CRC32C();
    ChunkChecksums.Builder chunks = new ChunkChecksums.Builder();
    long remaining = member.length();
    InputStream in = member.in();
    while (remaining > 0) {
      int n = in.read(readBuffer, 0, (int) Math.min(readBuffer.length, remaining));
      if (n < 0) {
        throw changed(member, member.length() - remaining);
      }
      crc.update(readBuffer, 0, n);
      chunks.update(readBuffer, 0, n);
      out.write(readBuffer, 0, n);
      remaining -= n;
    }
    if (member.wholeStream() && in.read() != -1) {
      throw changed(member, member.length() + 1);
    }
    if (header.chunked()) {
      out.write(chunks.table());
    }
    out.data().writeInt((int) crc.getValue());
    return header;
  }

  /**
   * Opens a source file, saying so if it is gone. A local file is opened through the JDK, with
   * one system call: Hadoop's local open first takes the file's status, four more, which the
   * walk of the sources took already. Only Hadoop's own local file system is bypassed: a
   * subclass may change what {@code open} does.
   */
  static InputStream open(Source source) throws IOException {
    try {
      RawLocalFileSystem local = SourceListing.plainLocal(source.fs());
      if (local != null) {
        return Files.newInputStream(local.pathToFile(source.path()).toPath());
      }
      return source.fs().open(source.path());
    } catch (java.io.FileNotFoundException | NoSuchFileException e) {
      throw new SourceException("source disappeared before it was read: " + source.path(), e);
    }
  }

  private static SourceException changed(Member member, long read) {
    if (member.wholeStream()) {
      return new SourceException("source changed while it was read (length is no longer "
          + member.length() + "): " + member.origin());
    }
    return new SourceException("member '" + member.name() + "': its stream ended after " + read
        + " of " + member.length() + " bytes");
  }
}
