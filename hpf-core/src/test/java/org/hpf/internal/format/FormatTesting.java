package org.hpf.internal.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.internal.io.HadoopStorage;

/** Helpers shared by the codec tests: real storage on a local directory, re-sealing bytes. */
final class FormatTesting {
  static final ArchiveId ID = new ArchiveId(0x0123456789ABCDEFL, 0xFEDCBA9876543210L);
  static final ArchiveId OTHER_ID = new ArchiveId(0x0123456789ABCDEFL, 0xFEDCBA9876543211L);

  private FormatTesting() {}

  /** An {@link HadoopStorage} over {@code dir} on the local file system. */
  static HadoopStorage storage(Path dir) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    return new HadoopStorage(fs, new org.apache.hadoop.fs.Path(dir.toUri()), (short) 0);
  }

  /**
   * Replaces a file of a local storage with {@code bytes}. Written with java.nio (the storage is
   * the raw local file system, without checksum side files): the tests damage files thousands
   * of times and Hadoop's create costs milliseconds; what they test is the reading side.
   */
  static void put(HadoopStorage storage, String name, byte[] bytes) throws IOException {
    java.nio.file.Path path = java.nio.file.Path.of(storage.path(name).toUri());
    java.nio.file.Files.createDirectories(path.getParent());
    java.nio.file.Files.write(path, bytes);
  }

  /** The same file with its footer checksum recomputed: lets a test reach the body checks. */
  static byte[] reseal(byte[] file) {
    byte[] copy = file.clone();
    CRC32C crc = new CRC32C();
    crc.update(copy, 0, copy.length - 4);
    ByteBuffer.wrap(copy).putInt(copy.length - 4, (int) crc.getValue());
    return copy;
  }

  /** A sealed file of {@code kind}: header, body, footer, as ChecksummedOutput writes it. */
  static byte[] sealed(FileKind kind, ArchiveId id, byte[] body) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    ChecksummedOutput out = new ChecksummedOutput(bytes);
    FileHeader.write(out.data(), kind, id);
    out.write(body);
    out.writeFooter();
    return bytes.toByteArray();
  }

  static byte[] flip(byte[] bytes, long bit) {
    byte[] copy = bytes.clone();
    copy[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
    return copy;
  }
}
