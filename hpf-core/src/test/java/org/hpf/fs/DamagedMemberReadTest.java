package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveReader;
import org.hpf.CorruptArchiveException;
import org.hpf.HpfArchive;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large raw member with one damaged byte, read in part as a Spark split, FsShell and the
 * public API read it: no read may hand out a byte that was not checked, whatever range it asks
 * for. Members with chunk checksums fail only the reads that cover the damaged chunk; a member
 * read in place without them (one under the threshold, read in place because the file system's
 * in-memory limit is lower) is checked whole before any of it is served.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DamagedMemberReadTest {
  private static final String BIG = "big.bin";
  private static final int BIG_LENGTH = 12_000_000;
  /** The damaged byte of {@link #BIG}: in its chunk 96 (6,291,456 to 6,356,991). */
  private static final int BIG_DAMAGE = 6_300_000;
  private static final int DAMAGED_CHUNK_START = 96 * 65_536;
  private static final String MID = "mid.bin";
  private static final int MID_LENGTH = 500_000;
  private static final int MID_DAMAGE = 300_000;

  @TempDir static java.nio.file.Path tmp;
  private final Configuration conf = new Configuration();
  private byte[] big;
  private byte[] mid;
  private Path archive;
  private String base;

  @BeforeAll
  void damagedArchive() throws IOException {
    java.nio.file.Path src = tmp.resolve("src");
    Files.createDirectories(src);
    Random random = new Random(7);
    big = new byte[BIG_LENGTH];
    random.nextBytes(big);
    mid = new byte[MID_LENGTH];
    random.nextBytes(mid);
    Files.write(src.resolve(BIG), big);
    Files.write(src.resolve(MID), mid);
    archive = new Path(tmp.resolve("damaged.hpf").toUri());
    ArchiveCreator.create(conf, archive, List.of(new Path(src.toUri())),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    flip(BIG, BIG_DAMAGE);
    flip(MID, MID_DAMAGE);
    base = "hpf://file-" + archive.toUri().getPath();
  }

  /** Flips every bit of the member's byte {@code at} in its part file. */
  private void flip(String member, long at) throws IOException {
    EntryStatus status;
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      status = reader.stat(member);
    }
    long offset = status.partOffset() + EntryHeader.size(MemberNames.utf8(member).length) + at;
    java.nio.file.Path part = tmp.resolve("damaged.hpf").resolve(ArchiveLayout.part(status.part()));
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      file.seek(offset);
      int b = file.read();
      file.seek(offset);
      file.write(b ^ 0xFF);
    }
  }

  private FileSystem hpf(Configuration configuration) throws IOException {
    return new Path(base).getFileSystem(configuration);
  }

  private static void assertChecksumError(IOException e) {
    assertTrue(e instanceof CorruptArchiveException || e instanceof ChecksumException,
        "not a checksum error: " + e);
  }

  @Test
  void splitInTheMiddleFailsInsteadOfReturningTheDamagedByte() throws IOException {
    try (FSDataInputStream in = hpf(conf).open(new Path(base + "/" + BIG))) {
      in.seek(6 << 20);
      byte[] split = new byte[1 << 20];
      assertChecksumError(assertThrows(IOException.class, () -> in.readFully(split)));
    }
  }

  @Test
  void positionedReadOfTheDamagedChunkFails() throws IOException {
    try (FSDataInputStream in = hpf(conf).open(new Path(base + "/" + BIG))) {
      byte[] range = new byte[100_000];
      assertChecksumError(assertThrows(IOException.class,
          () -> in.readFully(BIG_DAMAGE - 50_000, range, 0, range.length)));
      assertChecksumError(assertThrows(IOException.class,
          () -> in.read(BIG_DAMAGE, range, 0, 1)));
    }
  }

  @Test
  void rangesAwayFromTheDamageReadExactly() throws IOException {
    try (FSDataInputStream in = hpf(conf).open(new Path(base + "/" + BIG))) {
      byte[] range = new byte[1 << 20];
      in.readFully(1_000_000, range, 0, range.length);
      assertArrayEquals(Arrays.copyOfRange(big, 1_000_000, 1_000_000 + range.length), range);
      in.seek(8_000_000);
      in.readFully(range);
      assertArrayEquals(Arrays.copyOfRange(big, 8_000_000, 8_000_000 + range.length), range);
    }
  }

  @Test
  void catWritesNoByteOfTheDamagedChunk() throws Exception {
    ShellRun run = ShellRun.of(conf, "-cat", base + "/" + BIG);
    assertNotEquals(0, run.code(), "cat of a damaged member succeeded");
    byte[] written = run.outBytes();
    assertTrue(written.length <= DAMAGED_CHUNK_START, written.length + " bytes written");
    assertArrayEquals(Arrays.copyOf(big, written.length), written);
    assertTrue(run.err().contains("checksum"), run.err());
  }

  @Test
  void archiveReaderOpenSkipAndReadFails() throws IOException {
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf);
        InputStream in = reader.open(BIG)) {
      assertTrue(in.skip(6 << 20) > 0);
      assertChecksumError(assertThrows(IOException.class, () -> in.readNBytes(1 << 20)));
    }
  }

  @Test
  void memberWithoutChunkChecksumsIsCheckedWholeBeforeARangeIsServed() throws IOException {
    Configuration inPlace = new Configuration(conf);
    inPlace.setLong(HpfFileSystem.IN_MEMORY_KEY, 64 * 1024);
    inPlace.setBoolean("fs.hpf.impl.disable.cache", true);
    try (FileSystem fs = hpf(inPlace);
        FSDataInputStream in = fs.open(new Path(base + "/" + MID))) {
      byte[] range = new byte[4096];
      assertChecksumError(assertThrows(IOException.class,
          () -> in.readFully(100_000, range, 0, range.length)));
      in.seek(MID_DAMAGE - 100);
      assertChecksumError(assertThrows(IOException.class, () -> in.readFully(range)));
    }
  }
}
