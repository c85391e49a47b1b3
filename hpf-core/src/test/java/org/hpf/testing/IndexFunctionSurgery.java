package org.hpf.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.IndexHeader;

/**
 * Changes the function sections of an archive's index files in place and makes their checksums
 * right again (the function checksum and the footer), so that the change is confined to the
 * function, as a function written by another library version, or by a later codec, would be.
 */
public final class IndexFunctionSurgery {
  /** Offset of FunctionCodec in an index file: after the header, count, depth, prefix, size. */
  public static final int CODEC_AT = FileHeader.SIZE + 4 + 1 + 4 + 1;

  /** Changes one index file's bytes; the function section is {@code length} bytes at {@code at}. */
  @FunctionalInterface
  public interface Change {
    void apply(byte[] file, int at, int length);
  }

  private IndexFunctionSurgery() {}

  /** Applies {@code change} to every index file of {@code archive}; returns how many. */
  public static int rewriteAll(Path archive, Change change) throws IOException {
    List<Path> indexFiles;
    try (Stream<Path> files = Files.list(archive)) {
      indexFiles = files.filter(f -> f.getFileName().toString().startsWith("index-")).toList();
    }
    for (Path file : indexFiles) {
      byte[] bytes = Files.readAllBytes(file);
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      int headerSize = IndexHeader.sizeOf(bytes[5]);
      int at = FileHeader.SIZE + headerSize;
      int length = buf.getInt(CODEC_AT + 1);
      change.apply(bytes, at, length);
      buf.putInt(at + length, crc32c(bytes, FileHeader.SIZE, headerSize + length));
      buf.putInt(bytes.length - 4, crc32c(bytes, 0, bytes.length - 4));
      Files.write(file, bytes);
    }
    return indexFiles.size();
  }

  private static int crc32c(byte[] bytes, int offset, int length) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
