package org.hpf.golden;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.hpf.FileNotInArchiveException;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.FileFooter;
import org.hpf.format.FileHeader;
import org.hpf.format.FileKind;
import org.hpf.format.Manifest;
import org.hpf.format.MemberNames;
import org.hpf.read.HpfReader;
import org.hpf.read.MemberStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads the committed version-1 golden archive on every build, so that a change to the bytes
 * hpf reads (or writes) cannot pass unnoticed; see docs/FORMAT.md.
 */
class GoldenArchiveTest {
  private static Path golden;
  private static Path archive;
  private static GoldenArchive.Expected expected;

  @TempDir Path tmp;

  @BeforeAll
  static void load() throws IOException {
    golden = GoldenArchive.resources();
    archive = golden.resolve("archive.hpf");
    expected = GoldenArchive.parse(
        Files.readString(golden.resolve("expected.txt"), StandardCharsets.UTF_8));
  }

  private static HpfReader open() throws IOException {
    return HpfReader.open(new Configuration(), new org.apache.hadoop.fs.Path(archive.toUri()));
  }

  /** The archive's files by relative name ("_manifests/manifest-0000000001", "part-000000"). */
  private static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
      }
    }
    return files;
  }

  private static FileKind kindOf(String file) {
    if (file.startsWith(Manifest.DIR + "/" + Manifest.PREFIX)) {
      return FileKind.MANIFEST;
    }
    String[] prefixes = {"directory-", "index-", "part-", "names-"};
    FileKind[] kinds = {FileKind.DIRECTORY, FileKind.INDEX, FileKind.PART, FileKind.NAMES};
    for (int i = 0; i < prefixes.length; i++) {
      if (file.startsWith(prefixes[i])) {
        return kinds[i];
      }
    }
    throw new AssertionError("unexpected file in the golden archive: " + file);
  }

  @Test
  void goldenSetCoversWhatItMust() {
    List<GoldenArchive.ExpectedMember> members = expected.members();
    assertTrue(members.stream().anyMatch(m -> m.codec().equals("raw") && m.length() > 0));
    assertTrue(members.stream().anyMatch(m -> m.codec().equals("lz4")));
    assertTrue(members.stream().anyMatch(m -> m.length() == 0));
    assertTrue(members.stream().anyMatch(m -> !m.name().chars().allMatch(c -> c < 128)));
    assertTrue(members.stream().anyMatch(m -> m.name().codePoints().anyMatch(c -> c > 0xFFFF)));
    assertTrue(expected.longField("buckets") >= 3, "buckets");
    assertTrue(expected.longField("parts") >= 3, "parts");
  }

  @Test
  void goldenIndexCoversEmptyAndSingleKeyBuckets() throws IOException {
    // Function codec 0 (an empty bucket) and sux4j's function of a single key, which it builds
    // over a bit vector of its own that needs special care to serialize.
    try (HpfReader reader = open()) {
      List<Integer> counts = reader.directory().buckets().stream()
          .map(b -> b.recordCount()).toList();
      assertTrue(counts.contains(0), counts.toString());
      assertTrue(counts.contains(1), counts.toString());
      assertTrue(counts.stream().anyMatch(c -> c > 1), counts.toString());
      for (var bucket : reader.directory().buckets()) {
        byte[] index = Files.readAllBytes(archive.resolve(bucket.indexFile()));
        int codec = index[FileHeader.SIZE + 10];
        assertEquals(bucket.recordCount() == 0 ? 0 : 1, codec, bucket.indexFile());
      }
    }
  }

  @Test
  void everyMemberIsByteCorrect() throws IOException {
    try (HpfReader reader = open()) {
      for (GoldenArchive.ExpectedMember member : expected.members()) {
        String name = member.name();
        byte[] bytes = reader.get(name);
        assertEquals(member.length(), bytes.length, name);
        assertEquals(member.crc32c(), GoldenArchive.crc32c(bytes), name);
        assertEquals(member.sha256(), GoldenArchive.sha256(bytes), name);
        byte[] streamed;
        try (InputStream in = reader.open(name)) {
          streamed = in.readAllBytes();
        }
        assertArrayEquals(bytes, streamed, name);
        MemberStatus status = reader.stat(name);
        assertEquals(member.length(), status.length(), name);
        assertEquals(member.codec(), status.codec().toString(), name);
        assertEquals(member.mtime(), status.mtimeMillis(), name);
        assertTrue(reader.exists(name), name);
      }
      assertFalse(reader.exists("not-a-member"));
      assertThrows(FileNotInArchiveException.class, () -> reader.get("many/file-12"));
    }
  }

  @Test
  void membersAreTheGeneratorsInputs() throws IOException {
    // expected.txt and the generator agree, so the writer comparison below writes this archive.
    Map<String, byte[]> contents = GoldenArchive.contents();
    assertEquals(contents.size(), expected.members().size());
    for (GoldenArchive.ExpectedMember member : expected.members()) {
      byte[] bytes = contents.get(member.name());
      assertEquals(member.sha256(), GoldenArchive.sha256(bytes), member.name());
    }
  }

  @Test
  void listingIsEveryNameInUtf8Order() throws IOException {
    List<String> names = new ArrayList<>();
    expected.members().forEach(m -> names.add(m.name()));
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(MemberNames.ORDER);
    assertEquals(sorted, names, "expected.txt lists members in names-file order");
    try (HpfReader reader = open(); Stream<String> listed = reader.list()) {
      assertEquals(names, listed.toList());
    }
  }

  @Test
  void manifestIsAsRecorded() throws IOException {
    try (HpfReader reader = open()) {
      Manifest manifest = reader.manifest();
      assertEquals(1, manifest.generation());
      assertEquals(expected.longField("generation"), manifest.generation());
      assertEquals(GoldenArchive.ID, manifest.archiveId());
      assertEquals(expected.field("archiveId"), manifest.archiveId().toString());
      assertEquals(1, manifest.hashAlgorithm());
      assertEquals(expected.longField("fileCount"), manifest.fileCount());
      assertEquals(expected.members().size(), manifest.fileCount());
      assertEquals(expected.longField("originalBytes"), manifest.originalBytes());
      assertEquals(expected.members().stream().mapToLong(GoldenArchive.ExpectedMember::length)
          .sum(), manifest.originalBytes());
      assertEquals(expected.longField("storedBytes"), manifest.storedBytes());
      assertEquals(expected.longField("bucketCapacity"), manifest.bucketCapacity());
      assertEquals(expected.longField("blockSize"), manifest.blockSize());
      assertEquals(expected.longField("partSize"), manifest.partSize());
      assertEquals(expected.longField("parts"), manifest.parts().size());
      assertEquals(ArchiveLayout.directory(1), manifest.directoryFile());
      assertEquals(ArchiveLayout.names(1), manifest.namesFile());
      assertEquals(expected.longField("buckets"), reader.directory().buckets().size());
      assertEquals(expected.longField("globalDepth"), reader.directory().globalDepth());
      for (Manifest.PartInfo part : manifest.parts()) {
        assertEquals(Files.size(archive.resolve(ArchiveLayout.part(part.id()))), part.length());
      }
      // The whole description, as the generator wrote it (comments aside; the LZ4
      // implementation is that of the writer, not of this reader).
      GoldenArchive.Expected described = GoldenArchive.parse(GoldenArchive.describe(reader));
      described.fields().put(GoldenArchive.LZ4_COMPRESSOR,
          expected.field(GoldenArchive.LZ4_COMPRESSOR));
      assertEquals(expected, described);
    }
  }

  @Test
  void everyFileIsVersion1WithAValidFooter() throws IOException {
    Map<String, byte[]> files = files(archive);
    try (HpfReader reader = open()) {
      int indexFiles = reader.directory().buckets().size();
      int parts = reader.manifest().parts().size();
      assertEquals(1 + 1 + 1 + indexFiles + parts, files.size(), files.keySet().toString());
    }
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      String name = file.getKey();
      byte[] bytes = file.getValue();
      FileKind kind = kindOf(name);
      // The version byte itself, then the full header check (magic, kind, version, id).
      assertEquals(1, bytes[5], name + " version");
      assertEquals(kind.code(), bytes[4], name + " kind");
      assertEquals(GoldenArchive.ID, FileHeader.check(ByteBuffer.wrap(bytes), name, kind,
          GoldenArchive.ID), name);
      FileFooter.check(bytes, name);
    }
  }

  /**
   * Parses parts, index files and the names file by the byte layout of docs/FORMAT.md alone
   * (not with the reader's codecs) and checks them against each other and expected.txt.
   */
  @Test
  void filesFollowTheDocumentedLayout() throws IOException {
    Map<String, byte[]> files = files(archive);
    Map<String, GoldenArchive.ExpectedMember> members = new TreeMap<>();
    expected.members().forEach(m -> members.put(m.name(), m));
    // Part --> Header, PartId:int32, Entry^n, Footer
    Map<String, long[]> entries = new TreeMap<>(); // name -> part, offset, entry length, flags
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      if (kindOf(file.getKey()) != FileKind.PART) {
        continue;
      }
      byte[] part = file.getValue();
      ByteBuffer buf = ByteBuffer.wrap(part);
      int partId = buf.getInt(FileHeader.SIZE);
      assertEquals(ArchiveLayout.part(partId), file.getKey());
      int at = FileHeader.SIZE + 4;
      while (at < part.length - FileFooter.SIZE) {
        buf.position(at);
        assertEquals(0x48504645, buf.getInt(), "EntryMagic at " + at);
        int flags = buf.get() & 0xFF;
        assertEquals(0, buf.get(), "Reserved");
        int nameLength = buf.getShort() & 0xFFFF;
        long originalLength = buf.getLong();
        long storedLength = buf.getLong();
        long mtime = buf.getLong();
        String name = new String(part, buf.position(), nameLength, StandardCharsets.UTF_8);
        buf.position(buf.position() + nameLength);
        assertEquals(crc32c(part, at, 36 - 4 + nameLength), buf.getInt(), "HeaderChecksum");
        int storedAt = buf.position();
        buf.position(storedAt + (int) storedLength);
        int contentChecksum = buf.getInt();
        GoldenArchive.ExpectedMember member = members.get(name);
        assertTrue(member != null, name);
        assertEquals(member.length(), originalLength, name);
        assertEquals(member.mtime(), mtime, name);
        assertEquals(member.codec().equals("lz4") ? 1 : 0, flags, name);
        assertEquals(member.crc32c(), String.format("%08x", contentChecksum), name);
        if (flags == 0) {
          assertEquals(originalLength, storedLength, name);
          byte[] stored = Arrays.copyOfRange(part, storedAt, storedAt + (int) storedLength);
          assertEquals(member.sha256(), GoldenArchive.sha256(stored), name);
        } else {
          assertTrue(storedLength <= originalLength - originalLength / 8, name);
        }
        long entryLength = 36 + nameLength + storedLength + 4;
        assertEquals(at + entryLength, buf.position());
        entries.put(name, new long[] {partId, at, entryLength, flags});
        at = buf.position();
      }
      assertEquals(part.length - FileFooter.SIZE, at, file.getKey());
    }
    assertEquals(members.keySet(), entries.keySet());

    // Index --> Header, IndexHeader, FunctionBytes, FunctionChecksum, Record^n, Footer
    Map<String, String> byHash = new TreeMap<>();
    for (String name : members.keySet()) {
      byHash.put(org.hpf.format.NameHasher.MURMUR3_128.hash(name).toString(), name);
    }
    int records = 0;
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      if (kindOf(file.getKey()) != FileKind.INDEX) {
        continue;
      }
      byte[] index = file.getValue();
      ByteBuffer buf = ByteBuffer.wrap(index);
      buf.position(FileHeader.SIZE);
      int count = buf.getInt();
      int localDepth = buf.get();
      int prefix = buf.getInt();
      assertEquals(40, buf.get(), "RecordSize");
      buf.get(); // FunctionCodec
      int functionLength = buf.getInt();
      int sectionEnd = FileHeader.SIZE + 15 + functionLength;
      assertEquals(crc32c(index, FileHeader.SIZE, 15 + functionLength),
          buf.getInt(sectionEnd), "FunctionChecksum");
      int recordsOffset = sectionEnd + 4;
      assertEquals(recordsOffset + 40 * count + FileFooter.SIZE, index.length, file.getKey());
      String previous = null;
      for (int r = 0; r < count; r++) {
        int at = recordsOffset + 40 * r;
        String hash = java.util.HexFormat.of().formatHex(index, at, at + 16);
        assertTrue(previous == null || previous.compareTo(hash) < 0, "records in H order");
        previous = hash;
        long lo = buf.getLong(at + 8);
        assertEquals(prefix, (int) (lo & ((1L << localDepth) - 1)), "Prefix");
        String name = byHash.get(hash);
        assertTrue(name != null, "record of an unknown hash " + hash);
        long[] entry = entries.get(name);
        assertEquals(entry[0], unsigned(index, at + 16, 3), name + " Part");
        assertEquals(entry[3], index[at + 19], name + " Flags");
        assertEquals(entry[1], unsigned(index, at + 20, 6), name + " Offset");
        assertEquals(entry[2], unsigned(index, at + 26, 5), name + " EntryLength");
        assertEquals(members.get(name).length(), unsigned(index, at + 31, 5), name);
        assertEquals(crc32c(index, at, 36), buf.getInt(at + 36), name + " RecordChecksum");
        records++;
      }
    }
    assertEquals(members.size(), records);

    // Names --> Header, Block^m, EndBlock, TotalCount, Footer
    byte[] names = files.get(ArchiveLayout.names(1));
    ByteBuffer buf = ByteBuffer.wrap(names);
    buf.position(FileHeader.SIZE);
    List<String> listed = new ArrayList<>();
    int count;
    while ((count = buf.getInt()) != 0) {
      int start = buf.position() - 4;
      int byteLength = buf.getInt();
      for (int i = 0; i < count; i++) {
        byte[] name = new byte[buf.getShort()];
        buf.get(name);
        listed.add(new String(name, StandardCharsets.UTF_8));
      }
      assertEquals(start + 8 + byteLength, buf.position());
      assertEquals(crc32c(names, start, 8 + byteLength), buf.getInt(), "BlockChecksum");
    }
    assertEquals(listed.size(), buf.getLong(), "TotalCount");
    assertEquals(names.length - FileFooter.SIZE, buf.position());
    assertEquals(expected.members().stream().map(GoldenArchive.ExpectedMember::name).toList(),
        listed);
  }

  private static int crc32c(byte[] bytes, int offset, int length) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }

  private static long unsigned(byte[] bytes, int offset, int length) {
    long value = 0;
    for (int i = 0; i < length; i++) {
      value = value << 8 | (bytes[offset + i] & 0xFF);
    }
    return value;
  }

  /**
   * The current writer, given the same inputs, writes the same bytes as the golden archive.
   *
   * <p>Part, names and directory files depend only on the members, their mtimes, the options and
   * the archive id (one merge thread fixes the order of members in parts). Index files hold the
   * Java serialization of sux4j's hollow-trie function; the trie is built without randomness and
   * the serialized form has no identity hash codes or timestamps, so they are deterministic too
   * (checked here; the directory records their lengths, so it would differ with them). The
   * manifest differs only in CommitTimeMillis (bytes 32..39) and therefore in its footer CRC.
   *
   * <p>LZ4 output is the one input that depends on the environment: lz4-java picks its JNI
   * binding where its native library loads and a Java port elsewhere, and they compress to
   * different (equally valid) blocks. expected.txt records the one the golden archive was written
   * with; under another one, only the files that do not depend on LZ4 block sizes (names and
   * directory) are compared, and the rest of this test is skipped. Likewise, if it fails only on
   * parts, index files and manifest after an lz4-java upgrade, the compressor changed, not the
   * format (the golden archive still reads).
   */
  @Test
  void currentWriterWritesTheGoldenBytes() throws IOException {
    Path fresh = tmp.resolve("archive.hpf");
    GoldenArchive.create(tmp.resolve("src"), fresh);
    Map<String, byte[]> want = files(archive);
    Map<String, byte[]> got = files(fresh);
    assertEquals(want.keySet(), got.keySet());
    for (String name : List.of(ArchiveLayout.names(1), ArchiveLayout.directory(1))) {
      assertArrayEquals(want.get(name), got.get(name), name);
    }
    String lz4 = GoldenArchive.lz4Compressor();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        lz4.equals(expected.field(GoldenArchive.LZ4_COMPRESSOR)),
        "the golden archive was written with " + expected.field(GoldenArchive.LZ4_COMPRESSOR)
            + ", this JVM compresses with " + lz4 + ": parts, index files and manifest differ");
    List<String> different = new ArrayList<>();
    for (String name : want.keySet()) {
      byte[] a = want.get(name);
      byte[] b = got.get(name);
      if (kindOf(name) == FileKind.MANIFEST) {
        assertEquals(a.length, b.length, name);
        int commitTime = FileHeader.SIZE + 8;
        // Equal outside CommitTimeMillis and the checksum that covers it.
        byte[] maskedA = a.clone();
        byte[] maskedB = b.clone();
        for (byte[] masked : List.of(maskedA, maskedB)) {
          Arrays.fill(masked, commitTime, commitTime + 8, (byte) 0);
          Arrays.fill(masked, masked.length - 4, masked.length, (byte) 0);
        }
        if (!Arrays.equals(maskedA, maskedB)) {
          different.add(name);
        }
        FileFooter.check(b, name);
      } else if (!Arrays.equals(a, b)) {
        different.add(name + " (" + a.length + " vs " + b.length + " bytes, first difference at "
            + Arrays.mismatch(a, b) + ")");
      }
    }
    assertTrue(different.isEmpty(), "the writer no longer writes the golden bytes: " + different);
  }
}
