package org.hpf.write;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.apache.hadoop.fs.FSDataInputStream;
import org.hpf.SourceException;
import org.hpf.format.Codec;
import org.hpf.format.ChecksummedOutput;
import org.hpf.format.EntryHeader;
import org.hpf.format.IndexRecord;
import org.hpf.format.NameHasher;

/**
 * Reads a source once and writes it as an entry (header, stored bytes, content checksum):
 * members up to {@link WriterOptions#COMPRESS_LIMIT} are read whole and LZ4-compressed when that
 * pays; larger ones are streamed raw. One instance per merge thread.
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

  /** Writes {@code source} at the current position of {@code part}; returns its record. */
  IndexRecord write(Source source, PartWriter part) throws IOException {
    long offset = part.position();
    ChecksummedOutput out = part.output();
    EntryHeader header;
    if (source.length() <= WriterOptions.COMPRESS_LIMIT) {
      header = writeSmall(source, out);
    } else {
      header = writeStreamed(source, out);
    }
    long entryLength = header.entryLength();
    IndexRecord.checkLimits(part.id(), offset, entryLength, header.originalLength());
    if (part.position() - offset != entryLength) {
      throw new IllegalStateException("entry of " + source + " took " + (part.position() - offset)
          + " bytes, expected " + entryLength);
    }
    return new IndexRecord(hasher.hash(source.name()), part.id(), header.flags(), offset,
        entryLength, header.originalLength());
  }

  private EntryHeader writeSmall(Source source, ChecksummedOutput out) throws IOException {
    int length = (int) source.length();
    if (readBuffer.length < length) {
      readBuffer = new byte[Math.max(length, readBuffer.length * 2)];
    }
    try (FSDataInputStream in = open(source)) {
      int read = in.readNBytes(readBuffer, 0, length);
      if (read != length || in.read() != -1) {
        throw changed(source);
      }
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
    EntryHeader header = new EntryHeader(source.name(), codec.id(), length, storedLength,
        source.mtimeMillis());
    out.write(header.toBytes());
    out.write(stored, 0, storedLength);
    out.data().writeInt((int) crc.getValue());
    return header;
  }

  private EntryHeader writeStreamed(Source source, ChecksummedOutput out) throws IOException {
    EntryHeader header = new EntryHeader(source.name(), Codec.RAW.id(), source.length(),
        source.length(), source.mtimeMillis());
    IndexRecord.checkLimits(0, 0, header.entryLength(), source.length());
    out.write(header.toBytes());
    CRC32C crc = new CRC32C();
    long remaining = source.length();
    try (InputStream in = open(source)) {
      while (remaining > 0) {
        int n = in.read(readBuffer, 0, (int) Math.min(readBuffer.length, remaining));
        if (n < 0) {
          throw changed(source);
        }
        crc.update(readBuffer, 0, n);
        out.write(readBuffer, 0, n);
        remaining -= n;
      }
      if (in.read() != -1) {
        throw changed(source);
      }
    }
    out.data().writeInt((int) crc.getValue());
    return header;
  }

  private static FSDataInputStream open(Source source) throws IOException {
    try {
      return source.fs().open(source.path());
    } catch (java.io.FileNotFoundException e) {
      throw new SourceException("source disappeared before it was read: " + source.path(), e);
    }
  }

  private static SourceException changed(Source source) {
    return new SourceException("source changed while it was read (length is no longer "
        + source.length() + "): " + source.path());
  }
}
