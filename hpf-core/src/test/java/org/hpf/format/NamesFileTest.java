package org.hpf.format;

import static org.hpf.format.FormatTesting.ID;
import static org.hpf.format.FormatTesting.OTHER_ID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeSet;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.HpfException;
import org.hpf.io.HadoopStorage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The names file: blocks, end block, total, footer; streaming reads and damage. */
class NamesFileTest {
  private static final String FILE = "names-0000000001";

  @TempDir Path tmp;
  private HadoopStorage storage;

  @BeforeEach
  void setUp() throws IOException {
    storage = FormatTesting.storage(tmp);
  }

  private void write(List<String> names) throws IOException {
    storage.delete(FILE);
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(FILE, 0), ID)) {
      for (String name : names) {
        writer.add(name);
      }
      assertEquals(names.size(), writer.count());
      writer.finish();
    }
  }

  private List<String> read(ArchiveId id) throws IOException {
    List<String> names = new ArrayList<>();
    try (NamesFileReader reader = new NamesFileReader(storage.open(FILE), FILE, id)) {
      try {
        while (reader.hasNext()) {
          names.add(reader.next());
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      assertFalse(reader.hasNext());
      assertThrows(NoSuchElementException.class, reader::next);
    }
    return names;
  }

  private byte[] bytes() throws IOException {
    return Files.readAllBytes(tmp.resolve(FILE));
  }

  /** Names sorted as the format sorts them (unsigned UTF-8 bytes), with non-ASCII ones. */
  static List<String> names(int count, long seed) {
    Random random = new Random(seed);
    TreeSet<String> set = new TreeSet<>(MemberNames.ORDER);
    String[] alphabet = {"a", "b", "z", "é", "日", "😀", "/", "_", "0", "\uFFFD", "ÿ"};
    while (set.size() < count) {
      StringBuilder name = new StringBuilder("n");
      int length = 1 + random.nextInt(40);
      for (int i = 0; i < length; i++) {
        name.append(alphabet[random.nextInt(alphabet.length)]);
      }
      set.add(name.toString().replace("//", "/x/").replaceAll("/$", "/y"));
    }
    return new ArrayList<>(set);
  }

  /** Parses the file as the spec describes it, independently of NamesFileReader. */
  private static List<List<String>> blocks(byte[] file) {
    ByteBuffer buf = ByteBuffer.wrap(file);
    buf.position(FileHeader.SIZE);
    List<List<String>> blocks = new ArrayList<>();
    while (true) {
      int start = buf.position();
      int count = buf.getInt();
      if (count == 0) {
        break;
      }
      int length = buf.getInt();
      List<String> block = new ArrayList<>();
      int end = buf.position() + length;
      for (int i = 0; i < count; i++) {
        byte[] name = new byte[buf.getShort() & 0xFFFF];
        buf.get(name);
        block.add(new String(name, StandardCharsets.UTF_8));
      }
      assertEquals(end, buf.position());
      assertEquals(Checksums.crc32c(file, start, 8 + length), buf.getInt());
      blocks.add(block);
    }
    long total = buf.getLong();
    assertEquals(blocks.stream().mapToLong(List::size).sum(), total);
    assertEquals(FileFooter.MAGIC, buf.getInt());
    assertEquals(file.length - 4, buf.position());
    return blocks;
  }

  @Test
  void roundTripsManyBlocks() throws Exception {
    List<String> names = names(20_000, 1);
    write(names);
    byte[] file = bytes();
    FileFooter.check(file, FILE);
    List<List<String>> blocks = blocks(file);
    assertTrue(blocks.size() >= 4, "blocks: " + blocks.size());
    List<String> flat = new ArrayList<>();
    blocks.forEach(flat::addAll);
    assertEquals(names, flat);
    assertEquals(names, read(ID));
  }

  @Test
  void roundTripsLongNamesAndOneNameBlocks() throws Exception {
    // Names of 4096 bytes: a block closes as soon as it reaches 64 KiB.
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      names.add(String.format("%04d", i) + "x".repeat(4092));
    }
    write(names);
    assertTrue(blocks(bytes()).size() >= 2);
    assertEquals(names, read(ID));
    write(List.of("only"));
    assertEquals(List.of(List.of("only")), blocks(bytes()));
    assertEquals(List.of("only"), read(ID));
  }

  @Test
  void emptyFileIsHeaderEndBlockTotalFooter() throws Exception {
    write(List.of());
    byte[] file = bytes();
    assertEquals(FileHeader.SIZE + 4 + 8 + FileFooter.SIZE, file.length);
    assertEquals(FileKind.NAMES.code(), file[4]);
    assertEquals(0, ByteBuffer.wrap(file).getInt(FileHeader.SIZE));
    assertEquals(0, ByteBuffer.wrap(file).getLong(FileHeader.SIZE + 4));
    FileFooter.check(file, FILE);
    assertEquals(List.of(), read(ID));
  }

  @Test
  void rejectsNamesOutOfOrderOrDuplicated() throws Exception {
    try (NamesFileWriter writer = new NamesFileWriter(storage.create(FILE, 0), ID)) {
      writer.add("b");
      assertThrows(IllegalArgumentException.class, () -> writer.add("a"));
      assertThrows(IllegalArgumentException.class, () -> writer.add("b"));
      // UTF-8 byte order, not UTF-16 order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 ...)
      // although its UTF-16 code unit is larger than the surrogate D83D.
      writer.add("\uFFFD");
      writer.add("😀");
      assertThrows(IllegalArgumentException.class, () -> writer.add("\uFFFE"));
      writer.finish();
    }
    assertEquals(List.of("b", "\uFFFD", "😀"), read(ID));
  }

  @Test
  void checksTheHeader() throws Exception {
    write(names(10, 2));
    assertThrows(CorruptArchiveException.class, () -> read(OTHER_ID));
    byte[] file = bytes();
    file[5] = 2;
    FormatTesting.put(storage, FILE, file);
    assertTrue(assertThrows(ArchiveVersionException.class, () -> read(ID)).getMessage()
        .contains("too new"));
  }

  @Test
  void everyTruncationIsDetected() throws Exception {
    write(names(12, 3));
    byte[] file = bytes();
    for (int length = 0; length < file.length; length++) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, length));
      int n = length;
      assertThrows(CorruptArchiveException.class, () -> read(ID), () -> "cut at " + n);
    }
  }

  @Test
  void truncationOfAManyBlockFileIsDetected() throws Exception {
    write(names(10_000, 4));
    byte[] file = bytes();
    Random random = new Random(5);
    List<Integer> cuts = new ArrayList<>(List.of(0, 1, 23, 24, 25, 28, 32));
    for (int i = 1; i <= 12; i++) {
      cuts.add(file.length - i);
    }
    for (int i = 0; i < 40; i++) {
      cuts.add(random.nextInt(file.length));
    }
    for (int cut : cuts) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, cut));
      assertThrows(CorruptArchiveException.class, () -> read(ID), () -> "cut at " + cut);
    }
  }

  @Test
  void appendedBytesAreDetected() throws Exception {
    write(names(5, 6));
    byte[] file = bytes();
    for (int extra = 1; extra < 10; extra++) {
      FormatTesting.put(storage, FILE, Arrays.copyOf(file, file.length + extra));
      assertThrows(CorruptArchiveException.class, () -> read(ID));
    }
  }

  @Test
  void everySingleBitFlipIsDetected() throws Exception {
    write(List.of("a", "b/c", "dé", "e/f/g", "日本", "😀"));
    byte[] file = bytes();
    for (long bit = 0; bit < 8L * file.length; bit++) {
      FormatTesting.put(storage, FILE, FormatTesting.flip(file, bit));
      try {
        read(ID);
        fail("bit " + bit + " flipped unnoticed");
      } catch (CorruptArchiveException | ArchiveVersionException e) {
        // expected
      } catch (HpfException e) {
        fail("bit " + bit + ": unexpected " + e, e);
      }
    }
  }

  @Test
  void blockChecksumIsCheckedBeforeItsNamesAreReturned() throws Exception {
    List<String> names = names(20_000, 8);
    write(names);
    byte[] file = bytes();
    List<List<String>> blocks = blocks(file);
    // Damage the last byte of the second block's names: the first block's names are returned,
    // then the reader stops with an error before returning any name of the second block.
    int secondStart = FileHeader.SIZE;
    ByteBuffer buf = ByteBuffer.wrap(file);
    secondStart += 8 + buf.getInt(FileHeader.SIZE + 4) + 4;
    int secondLength = buf.getInt(secondStart + 4);
    file[secondStart + 8 + secondLength - 1] ^= 1;
    FormatTesting.put(storage, FILE, file);
    List<String> seen = new ArrayList<>();
    try (NamesFileReader reader = new NamesFileReader(storage.open(FILE), FILE, ID)) {
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
        while (reader.hasNext()) {
          seen.add(reader.next());
        }
      });
      assertTrue(e.getCause() instanceof CorruptArchiveException, e.toString());
      assertTrue(e.getCause().getMessage().contains("names block checksum"),
          e.getCause().getMessage());
    }
    assertEquals(blocks.get(0), seen);
  }
}
