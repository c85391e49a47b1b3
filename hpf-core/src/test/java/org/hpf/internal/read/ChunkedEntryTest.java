package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Checksums;
import org.hpf.internal.format.ChunkChecksums;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entries with chunk checksums (layout 1 of docs/FORMAT.md, "Part"): what the writer writes,
 * and that readers refuse damaged or cut ones; and that an entry without them, read in place,
 * is checked whole before any range of it is handed out.
 */
class ChunkedEntryTest {
  private static final int CHUNK = ChunkChecksums.CHUNK_SIZE;

  @TempDir Path tmp;

  /** An archive of {@code members} (name, length) of random bytes; returns the bytes. */
  private byte[][] archive(Path archive, String[] names, int[] lengths) throws IOException {
    Path src = tmp.resolve("src");
    Files.createDirectories(src);
    Random random = new Random(42);
    byte[][] bytes = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      bytes[i] = new byte[lengths[i]];
      random.nextBytes(bytes[i]);
      Files.write(src.resolve(names[i]), bytes[i]);
    }
    ArchiveCreator.create(new Configuration(), hadoop(archive),
        List.of(new org.apache.hadoop.fs.Path(src.toUri())),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    return bytes;
  }

  private static org.apache.hadoop.fs.Path hadoop(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  private static HpfReader open(Path archive) throws IOException {
    return HpfReader.open(new Configuration(), hadoop(archive));
  }

  @Test
  void writerWritesTheDocumentedLayout() throws IOException {
    Path archive = tmp.resolve("a.hpf");
    int length = 3 * CHUNK * 16 + 5; // 3 MiB and 5 bytes: 49 chunks, the last of 5 bytes
    byte[][] bytes = archive(archive, new String[] {"big", "at-threshold"},
        new int[] {length, (int) ChunkChecksums.THRESHOLD});
    try (HpfReader reader = open(archive)) {
      IndexRecord record = reader.record("big");
      byte[] part = Files.readAllBytes(archive.resolve(ArchiveLayout.part(record.part())));
      assertEquals(FileKind.PART.version(), part[5], "part version");
      assertEquals(2, FileKind.PART.version());
      int at = (int) record.offset();
      int dataAt = at + EntryHeader.size(3);
      assertEquals(Codec.RAW.id(), part[at + 4], "Flags");
      assertEquals(EntryHeader.CHUNKED, part[at + 5], "Layout");
      assertArrayEquals(bytes[0], Arrays.copyOfRange(part, dataAt, dataAt + length));
      ByteBuffer table = ByteBuffer.wrap(part, dataAt + length, 4 * 49 + 4);
      for (int chunk = 0; chunk < 49; chunk++) {
        int n = Math.min(CHUNK, length - chunk * CHUNK);
        assertEquals(Checksums.crc32c(bytes[0], chunk * CHUNK, n), table.getInt(),
            "chunk " + chunk);
      }
      assertEquals(Checksums.crc32c(bytes[0], 0, length), table.getInt(), "ContentChecksum");
      assertEquals(EntryHeader.size(3) + length + 4 * 49 + 4, record.entryLength());
      assertEquals(length, reader.stat("big").storedLength());
      assertArrayEquals(bytes[0], reader.get("big"));
      try (InputStream in = reader.open("big")) {
        assertArrayEquals(bytes[0], in.readAllBytes());
      }

      // A member of exactly the threshold is written as before: no chunk checksums.
      IndexRecord small = reader.record("at-threshold");
      assertEquals(EntryHeader.size(12) + ChunkChecksums.THRESHOLD + 4, small.entryLength());
      byte[] smallPart = Files.readAllBytes(archive.resolve(ArchiveLayout.part(small.part())));
      assertEquals(EntryHeader.PLAIN, smallPart[(int) small.offset() + 5], "Layout");
      assertArrayEquals(bytes[1], reader.get("at-threshold"));
    }
  }

  @Test
  void headerRefusesLayoutsTheFormatDoesNotHave() throws IOException {
    byte[] chunked = new EntryHeader("n", Codec.RAW.id(), EntryHeader.CHUNKED, 5, 5, 0)
        .toBytes();
    assertTrue(EntryHeader.read(chunked, 0, chunked.length, "p", 0).chunked());
    for (EntryHeader bad : List.of(
        new EntryHeader("n", Codec.RAW.id(), 2, 5, 5, 0),
        new EntryHeader("n", Codec.LZ4.id(), EntryHeader.CHUNKED, 5, 4, 0),
        new EntryHeader("n", Codec.RAW.id(), EntryHeader.CHUNKED, 5, 4, 0))) {
      byte[] bytes = bad.toBytes();
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> EntryHeader.read(bytes, 0, bytes.length, "p", 0));
      assertTrue(e.getMessage().contains("entry layout"), e.getMessage());
    }
  }

  @Test
  void damagedChunkChecksumFailsEveryReadOfItsChunkAndNoOther() throws IOException {
    Path archive = tmp.resolve("b.hpf");
    int length = 40 * CHUNK + 1000;
    byte[] bytes = archive(archive, new String[] {"big"}, new int[] {length})[0];
    IndexRecord record;
    try (HpfReader reader = open(archive)) {
      record = reader.record("big");
    }
    long chunk7 = record.offset() + EntryHeader.size(3) + length + 4 * 7;
    flip(archive.resolve(ArchiveLayout.part(record.part())), chunk7 + 2);
    try (HpfReader reader = open(archive)) {
      assertChunkError(assertThrows(CorruptArchiveException.class, () -> reader.get("big")));
      try (InputStream in = reader.open("big")) {
        assertChunkError(assertThrows(CorruptArchiveException.class, in::readAllBytes));
      }
      CheckedMember member = reader.inPlace("big", "big");
      byte[] across = new byte[3 * CHUNK]; // chunks 7 to 10: 7 is damaged
      assertChunkError(assertThrows(CorruptArchiveException.class,
          () -> member.read(8 * CHUNK - 10, across, 0, across.length)));
      assertChunkError(assertThrows(CorruptArchiveException.class,
          () -> member.read(7 * CHUNK + 100, new byte[1], 0, 1)));
      byte[] range = new byte[5 * CHUNK];
      member.read(8 * CHUNK + 17, range, 0, range.length);
      assertArrayEquals(Arrays.copyOfRange(bytes, 8 * CHUNK + 17, 13 * CHUNK + 17), range);
    }
  }

  private static void assertChunkError(CorruptArchiveException e) {
    assertTrue(e.getMessage().contains("chunk checksum of"), e.getMessage());
  }

  @Test
  void entryCutInItsChunkChecksumsIsReported() throws IOException {
    Path archive = tmp.resolve("c.hpf");
    int length = 20 * CHUNK;
    archive(archive, new String[] {"big"}, new int[] {length});
    IndexRecord record;
    try (HpfReader reader = open(archive)) {
      record = reader.record("big");
    }
    try (HpfReader reader = open(archive)) {
      CheckedMember member = reader.inPlace("big", "big");
      Path part = archive.resolve(ArchiveLayout.part(record.part()));
      try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
        file.setLength(record.offset() + EntryHeader.size(3) + length + 10);
      }
      CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
          () -> member.read(19 * CHUNK, new byte[CHUNK], 0, CHUNK));
      assertTrue(e.getMessage().contains("runs past the end of the part"), e.getMessage());
    }
    try (HpfReader reader = open(archive)) {
      assertThrows(CorruptArchiveException.class, () -> reader.get("big"));
    }
  }

  @Test
  void entryWithoutChunkChecksumsIsCheckedWholeBeforeAnyRange() throws IOException {
    int length = 3 * CHUNK;
    byte[] data = new byte[length];
    new Random(3).nextBytes(data);
    EntryHeader header = new EntryHeader("old", Codec.RAW.id(), length, length, 0);
    ByteBuffer entry = ByteBuffer.allocate((int) header.entryLength());
    entry.put(header.toBytes()).put(data).putInt(Checksums.crc32c(data, 0, length));
    byte[] part = entry.array();
    CheckedMember intact = new CheckedMember(input(part), 0, header, "old", "old");
    byte[] range = new byte[100];
    intact.read(CHUNK, range, 0, range.length);
    assertArrayEquals(Arrays.copyOfRange(data, CHUNK, CHUNK + 100), range);

    part[header.size() + 2 * CHUNK + 5] ^= 1; // far from the range read below
    CheckedMember damaged = new CheckedMember(input(part), 0, header, "old", "old");
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> damaged.read(10, range, 0, range.length));
    assertTrue(e.getMessage().contains("content checksum of 'old'"), e.getMessage());
  }

  private static ArchiveInput input(byte[] bytes) {
    return new ArchiveInput() {
      @Override
      public String name() {
        return "part-000001";
      }

      @Override
      public long length() {
        return bytes.length;
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        if (position + length > bytes.length) {
          throw new java.io.EOFException("past the end");
        }
        System.arraycopy(bytes, (int) position, buffer, offset, length);
      }

      @Override
      public void close() {}
    };
  }

  private static void flip(Path file, long at) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x01);
    }
  }
}
