package org.hpf.golden;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.hpf.MemberAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.CreateResult;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.WriterOptions;

/**
 * The inputs of the golden version-1 archive: fixed member contents and modification times,
 * fixed archive id and writer options (one merge thread, so members land in parts in name
 * order), the changes made after the create, and the {@code expected.txt} that describes the
 * result.
 *
 * <p>The archive has three generations: generation 1 is a create of {@link #contents};
 * generation 2 an append with replace ({@link ArchiveWriter}) of {@link #appended()}, four new
 * names and a new version of {@link #REPLACED}, which is written as an index layer of its own
 * (function codec 2, fingerprints) and a names segment of its own; generation 3 a delete of
 * {@link #DELETED}, written as a third layer holding one tombstone and a third segment holding
 * one deletion. The writer keeps the newest two generations, so the archive holds the manifests
 * of generations 2 and 3; its members are those of generation 3 ({@link #finalContents}).
 *
 * <p>Each format version's archive is committed under
 * {@code src/test/resources/golden/v<version>/archive.hpf/}. Never regenerate one for an
 * existing format version: it is the proof that readers still read what that version's writers
 * wrote. A new format version gets a new directory; the current writer must keep writing the
 * newest one byte for byte.
 */
final class GoldenArchive {
  static final ArchiveId ID = new ArchiveId(0x6870662D676F6C64L, 0x656E2D76312D3031L);
  static final int BUCKET_CAPACITY = 3;
  static final long PART_SIZE = 4096;
  static final long BLOCK_SIZE = 1 << 20;
  static final long BASE_MTIME = 1_600_000_000_000L;
  static final long APPEND_MTIME = 1_700_000_000_000L;
  /** The member generation 2 replaces. */
  static final String REPLACED = "text/lorem.txt";
  /**
   * A raw member with chunk checksums (format version 3): over the 1 MiB threshold, 18 chunks of
   * 64 KiB, the last one short; random, so LZ4 does not pay.
   */
  static final String CHUNKED = "large/chunked.bin";
  static final int CHUNKED_LENGTH = (1 << 20) + 70_001;
  /** The member generation 3 deletes. */
  static final String DELETED = "b/c/d/e.txt";

  private GoldenArchive() {}

  static WriterOptions options() {
    return WriterOptions.builder().settings(s -> s.threads(1))
        .layout(l -> l.withBucketCapacity(BUCKET_CAPACITY).withPartSize(PART_SIZE)
        .withBlockSize(BLOCK_SIZE)).archiveId(ID).build();
  }

  /**
   * Every member of generation 1 (the create) of a format version's golden archive and its bytes,
   * in the order they are written; from version 3 on, with {@link #CHUNKED}.
   */
  static Map<String, byte[]> contents(int version) {
    Map<String, byte[]> members = new LinkedHashMap<>();
    Random random = new Random(20250101L);
    members.put("empty", new byte[0]);
    members.put("one-byte", new byte[] {42});
    members.put("raw/random-700.bin", randomBytes(random, 700));
    members.put("raw/random-1500.bin", randomBytes(random, 1500));
    members.put("raw/random-3000.bin", randomBytes(random, 3000));
    members.put("text/lorem.txt", utf8("Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
        .repeat(40)));
    StringBuilder csv = new StringBuilder("n,square,cube\n");
    for (int i = 0; i < 200; i++) {
      csv.append(i).append(',').append(i * i).append(',').append(i * i * i).append('\n');
    }
    members.put("text/numbers.csv", utf8(csv.toString()));
    members.put("ünïcödé/日本語.txt", utf8("こんにちは、世界。".repeat(30)));
    members.put("emoji/😀 grin.bin", randomBytes(random, 33));
    members.put("a", utf8("a"));
    members.put("b/c/d/e.txt", utf8("deeply nested\n"));
    members.put("zeros-5000", new byte[5000]);
    for (int i = 0; i < 12; i++) {
      members.put(String.format(Locale.ROOT, "many/file-%02d", i),
          i % 2 == 0 ? randomBytes(random, 10 + 37 * i) : utf8(("file " + i + "\n").repeat(i * 9)));
    }
    if (version >= 3) {
      members.put(CHUNKED, randomBytes(random, CHUNKED_LENGTH));
    }
    return members;
  }

  /** What generation 2 appends (with replace): four new names and a new {@link #REPLACED}. */
  static Map<String, byte[]> appended() {
    Map<String, byte[]> members = new LinkedHashMap<>();
    Random random = new Random(20250202L);
    members.put("new/added-text.txt", utf8("appended in generation 2; ".repeat(50)));
    members.put("new/ünï-raw.bin", randomBytes(random, 900));
    members.put("new/empty", new byte[0]);
    members.put(REPLACED, utf8("Replaced lorem, generation 2. ".repeat(30)));
    members.put("zz/last 🎉", randomBytes(random, 17));
    return members;
  }

  /** The members of the newest generation (3) and their bytes, by name. */
  static Map<String, byte[]> finalContents(int version) {
    Map<String, byte[]> members = new LinkedHashMap<>(contents(version));
    members.putAll(appended());
    members.remove(DELETED);
    return members;
  }

  /** The mtimes of the newest generation's members, by name. */
  static Map<String, Long> finalMtimes(int version) {
    Map<String, Long> mtimes = new LinkedHashMap<>();
    int i = 0;
    for (String name : contents(version).keySet()) {
      mtimes.put(name, mtime(i++));
    }
    i = 0;
    for (String name : appended().keySet()) {
      mtimes.put(name, appendMtime(i++));
    }
    mtimes.remove(DELETED);
    return mtimes;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** The modification time of the {@code i}-th member (whole seconds, exact on any disk). */
  static long mtime(int i) {
    return BASE_MTIME + 1000L * 3601 * i;
  }

  /** The modification time of the {@code i}-th appended member. */
  static long appendMtime(int i) {
    return APPEND_MTIME + 1000L * 7 * i;
  }

  /** A member's usual access in the golden archive of format 4: rw-r--r--. */
  static final MemberAccess PLAIN = new MemberAccess("hpf", "users", 0644);
  /** An owner name longer than 255 bytes. */
  static final String LONG_OWNER = "a-long-owner-name-".repeat(17);

  /**
   * The owner, group and mode the create gives a member (format 4 on): several classes, with
   * setgid, sticky, non-ASCII and read-only ones; most members share {@link #PLAIN}.
   */
  static MemberAccess createdAccess(String name) {
    if (name.startsWith("raw/")) {
      return new MemberAccess("hpf", "users", 0600);
    }
    if (name.startsWith("many/")) {
      return Integer.parseInt(name.substring(name.length() - 2)) % 3 == 0
          ? new MemberAccess("hpf", "users", 0755) : PLAIN;
    }
    if (name.equals(CHUNKED)) {
      return new MemberAccess("hpf", "data", 02750);
    }
    if (name.startsWith("emoji/")) {
      return new MemberAccess("root", "wheel", 01644);
    }
    if (name.startsWith("ünïcödé/")) {
      return new MemberAccess("ünïcödé", "grüppe", 0444);
    }
    return PLAIN;
  }

  /** What the append gives a member: the new {@link #REPLACED} is setuid, of a long owner. */
  static MemberAccess appendedAccess(String name) {
    if (name.equals(REPLACED)) {
      return new MemberAccess(LONG_OWNER, "staff", 04755);
    }
    return name.startsWith("new/") ? new MemberAccess("hpf", "users", 0640) : PLAIN;
  }

  /** The access of a member of the kept generations (2 and 3): its newest version's. */
  static MemberAccess access(String name) {
    return appended().containsKey(name) ? appendedAccess(name) : createdAccess(name);
  }

  private static void writeFiles(Path dir, Map<String, byte[]> members) throws IOException {
    for (Map.Entry<String, byte[]> member : members.entrySet()) {
      Path file = dir.resolve(member.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, member.getValue());
    }
  }

  /**
   * The members as source files under {@code dir}, with their modification times and (the
   * same on every machine) the accesses {@code access} gives them.
   */
  private static List<Source> sources(Path dir, Map<String, byte[]> members,
      java.util.function.IntToLongFunction mtime,
      java.util.function.Function<String, MemberAccess> access) throws IOException {
    writeFiles(dir, members);
    FileSystem local = FileSystem.getLocal(new Configuration());
    List<Source> sources = new ArrayList<>();
    int i = 0;
    for (Map.Entry<String, byte[]> member : members.entrySet()) {
      sources.add(new Source(member.getKey(), local,
          new org.apache.hadoop.fs.Path(dir.resolve(member.getKey()).toUri()),
          member.getValue().length, mtime.applyAsLong(i++), access.apply(member.getKey())));
    }
    return sources;
  }

  /**
   * Creates the golden archive from freshly written sources under {@code work}, then appends and
   * deletes as described above; returns what the create reported.
   */
  static CreateResult create(Path work, Path archive) throws IOException {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(archive.toUri());
    HadoopStorage storage = new HadoopStorage(FileSystem.getLocal(conf), target, (short) 0);
    CreateResult result = ArchiveCreator.create(storage, sources(work.resolve("src"),
        contents(FileHeader.FORMAT_VERSION), GoldenArchive::mtime, GoldenArchive::createdAccess),
        options());
    List<Source> more = sources(work.resolve("src-append"), appended(),
        GoldenArchive::appendMtime, GoldenArchive::appendedAccess);
    try (ArchiveWriter writer = ArchiveWriter.open(conf, target, options())) {
      writer.appendSources(more, true);
      writer.delete(List.of(DELETED));
    }
    return result;
  }

  /** The directory of a version's golden archive under src/test/resources. */
  static String resource(int version) {
    return "/golden/v" + version;
  }

  /** The committed golden directory of a version, as Maven copied it to target/test-classes. */
  static Path resources(int version) {
    URL url = GoldenArchive.class.getResource(resource(version) + "/expected.txt");
    if (url == null) {
      throw new IllegalStateException("golden archive missing from the test class path: "
          + resource(version));
    }
    try {
      return Path.of(url.toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  // ------------------------------------------------------------------ expected.txt

  /** One line of expected.txt per member. */
  record ExpectedMember(String name, long length, String crc32c, String sha256, String codec,
      long mtime) {}

  /**
   * expected.txt: the manifest figures, every member, and (format 4 on) every member's access
   * class.
   */
  record Expected(Map<String, String> fields, List<ExpectedMember> members,
      Map<String, Integer> accessIds) {
    String field(String key) {
      String value = fields.get(key);
      if (value == null) {
        throw new IllegalStateException("expected.txt has no " + key);
      }
      return value;
    }

    long longField(String key) {
      return Long.parseLong(field(key));
    }
  }

  /**
   * The field naming the LZ4 implementation lz4-java chose for the writer. Its JNI binding and its
   * Java ports compress to different (equally valid) blocks, so the bytes of parts holding LZ4
   * members, and of the index records and manifest that give their lengths, depend on it.
   */
  static final String LZ4_COMPRESSOR = "lz4Compressor";

  static String lz4Compressor() {
    return net.jpountz.lz4.LZ4Factory.fastestInstance().toString();
  }

  static String crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return String.format(Locale.ROOT, "%08x", crc.getValue());
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Describes an archive as expected.txt records it, from what a reader returns. */
  static String describe(HpfReader reader) throws IOException {
    var manifest = reader.manifest();
    StringBuilder text = new StringBuilder();
    text.append("# hpf golden archive, format version " + FileHeader.FORMAT_VERSION
        + ", written by GoldenArchiveWriter\n");
    text.append("# (mvn test -pl hpf-core -Dtest=GoldenArchiveWriter -Dhpf.golden.write=true).\n");
    text.append("# Generations: a create, an append with replace, a delete; the newest (3) is\n");
    text.append("# described, the manifests of 2 and 3 are kept.\n");
    text.append("# Do not edit or regenerate: GoldenArchiveV<version>Test checks archive.hpf against it.\n");
    text.append("# member lines: TAB-separated length, CRC32C, SHA-256, codec, mtime, name.\n");
    if (!manifest.accesses().isEmpty()) {
      text.append("# access.<id>: TAB-separated octal mode, owner, group; memberAccess lines:\n");
      text.append("# TAB-separated access id, name.\n");
    }
    text.append("archiveId ").append(manifest.archiveId()).append('\n');
    text.append("generation ").append(manifest.generation()).append('\n');
    text.append("hashAlgorithm ").append(manifest.hashAlgorithm()).append('\n');
    text.append("fileCount ").append(manifest.fileCount()).append('\n');
    text.append("originalBytes ").append(manifest.originalBytes()).append('\n');
    text.append("storedBytes ").append(manifest.storedBytes()).append('\n');
    text.append("bucketCapacity ").append(manifest.bucketCapacity()).append('\n');
    text.append("blockSize ").append(manifest.blockSize()).append('\n');
    text.append("partSize ").append(manifest.partSize()).append('\n');
    text.append("parts ").append(manifest.parts().size()).append('\n');
    text.append("buckets ").append(reader.directory().buckets().size()).append('\n');
    text.append("globalDepth ").append(reader.directory().globalDepth()).append('\n');
    text.append("layers ").append(manifest.layers().size()).append('\n');
    for (int i = 0; i < manifest.layers().size(); i++) {
      var layer = manifest.layers().get(i);
      var directory = reader.layers().get(i);
      text.append("layer.").append(i).append(' ')
          .append(layer.directoryFile() != null ? layer.directoryFile() : "in-manifest")
          .append(" records=").append(layer.records())
          .append(" buckets=").append(directory.buckets().size())
          .append(" globalDepth=").append(directory.globalDepth()).append('\n');
    }
    text.append("namesSegments ").append(manifest.namesSegments().size()).append('\n');
    for (int i = 0; i < manifest.namesSegments().size(); i++) {
      var segment = manifest.namesSegments().get(i);
      text.append("segment.").append(i).append(' ').append(segment.file())
          .append(" entries=").append(segment.entries()).append('\n');
    }
    for (var part : manifest.parts()) {
      text.append("part.").append(part.id()).append(" length=").append(part.length())
          .append(" liveEntries=").append(part.liveEntries())
          .append(" liveBytes=").append(part.liveBytes()).append('\n');
    }
    text.append(LZ4_COMPRESSOR).append(' ').append(lz4Compressor()).append('\n');
    if (!manifest.accesses().isEmpty()) {
      text.append("accessClasses ").append(manifest.accesses().size()).append('\n');
      for (int i = 0; i < manifest.accesses().size(); i++) {
        MemberAccess access = manifest.accesses().get(i);
        text.append("access.").append(i + 1).append(' ')
            .append(String.format(Locale.ROOT, "%04o", access.mode())).append('\t')
            .append(access.owner()).append('\t').append(access.group()).append('\n');
      }
    }
    List<String> names;
    try (var listed = reader.list()) {
      names = listed.toList();
    }
    for (String name : names) {
      byte[] bytes = reader.get(name);
      EntryStatus status = reader.stat(name);
      text.append("member\t").append(bytes.length).append('\t').append(crc32c(bytes))
          .append('\t').append(sha256(bytes)).append('\t').append(status.codec()).append('\t')
          .append(status.mtimeMillis()).append('\t').append(name).append('\n');
      if (!manifest.accesses().isEmpty()) {
        text.append("memberAccess\t").append(status.access()).append('\t').append(name)
            .append('\n');
      }
    }
    return text.toString();
  }

  static Expected parse(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    List<ExpectedMember> members = new ArrayList<>();
    Map<String, Integer> accessIds = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("memberAccess\t")) {
        String[] f = line.split("\t", 3);
        accessIds.put(f[2], Integer.parseInt(f[1]));
      } else if (line.startsWith("member\t")) {
        String[] f = line.split("\t", 7);
        members.add(new ExpectedMember(f[6], Long.parseLong(f[1]), f[2], f[3], f[4],
            Long.parseLong(f[5])));
      } else {
        String[] f = line.split(" ", 2);
        fields.put(f[0], f[1]);
      }
    }
    return new Expected(fields, members, accessIds);
  }
}
