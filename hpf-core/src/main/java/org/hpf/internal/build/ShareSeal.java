package org.hpf.internal.build;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedShare.PartSeal;

/**
 * What a task attempt finished, written last into its work directory ({@value #FILE}, format in
 * docs/FORMAT.md): the attempt, its split, its journal's length and each part it sealed with
 * its length and footer checksum. It travels with the journal it describes, so the job's commit
 * can prove that every part a journal points into is the one that attempt wrote.
 *
 * @param split the index of the attempt's split in the driver's listing
 */
record ShareSeal(String attempt, int split, long journalLength, Map<Integer, PartSeal> parts) {
  static final String FILE = "seal";
  private static final String MAGIC = "hpf-share-seal 1";

  /**
   * Seals the finished work of {@code attempt} in {@code work}, its parts in {@code partStorage}:
   * call after the merge's finish.
   */
  static ShareSeal write(ArchiveStorage work, ArchiveStorage partStorage, TaskAttemptID attempt,
      int split, List<PartInfo> sealed) throws IOException {
    Map<Integer, PartSeal> parts = new TreeMap<>();
    for (PartInfo part : sealed) {
      try (ArchiveInput in = partStorage.open(ArchiveLayout.part(part.id()))) {
        long length = in.length();
        parts.put(part.id(), new PartSeal(length,
            ByteBuffer.wrap(in.readFully(length - 4, 4)).getInt()));
      }
    }
    long journal;
    try (ArchiveInput in = work.open(StagedMerge.JOURNAL)) {
      journal = in.length();
    }
    ShareSeal seal = new ShareSeal(attempt.toString(), split, journal,
        Collections.unmodifiableMap(parts));
    byte[] text = seal.text();
    try (ArchiveOutput out = work.create(FILE, 0)) {
      OutputStream stream = out.stream();
      stream.write(text);
      stream.write(String.format("end %08x%n", checksum(text, text.length))
          .getBytes(StandardCharsets.UTF_8));
      out.sync();
    }
    return seal;
  }

  private byte[] text() {
    StringBuilder text = new StringBuilder(MAGIC).append('\n')
        .append("attempt ").append(attempt).append('\n')
        .append("split ").append(split).append('\n')
        .append("journal ").append(journalLength).append('\n');
    parts.forEach((id, part) -> text.append(String.format("part %d %d %08x%n", id,
        part.length(), part.checksum())));
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Reads the seal of a work or committed task directory ({@code dir}, inside storage). */
  static ShareSeal read(ArchiveStorage storage, String dir) throws IOException {
    String file = dir + "/" + FILE;
    byte[] bytes;
    try (ArchiveInput in = storage.open(file)) {
      if (in.length() > Integer.MAX_VALUE - 8) {
        throw new CorruptArchiveException(storage.location(file), 0, "too long for a seal");
      }
      bytes = in.readFully(0, (int) in.length());
    }
    try {
      return parse(bytes);
    } catch (RuntimeException e) {
      throw new CorruptArchiveException(storage.location(file), 0,
          "not a complete share seal (" + e.getMessage() + ")");
    }
  }

  private static ShareSeal parse(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    int end = text.lastIndexOf("\nend ") + 1;
    if (end == 0 || !text.endsWith("\n")
        || Integer.parseUnsignedInt(text.substring(end + 4).strip(), 16)
            != checksum(bytes, text.substring(0, end).getBytes(StandardCharsets.UTF_8).length)) {
      throw new IllegalArgumentException("no end line, or its checksum does not match");
    }
    List<String> lines = text.substring(0, end).lines().toList();
    if (lines.size() < 4 || !lines.get(0).equals(MAGIC)) {
      throw new IllegalArgumentException("expected " + MAGIC);
    }
    Map<Integer, PartSeal> parts = new TreeMap<>();
    for (String line : lines.subList(4, lines.size())) {
      String[] fields = field(line, "part").split(" ");
      parts.put(Integer.parseInt(fields[0]), new PartSeal(Long.parseLong(fields[1]),
          Integer.parseUnsignedInt(fields[2], 16)));
    }
    return new ShareSeal(field(lines.get(1), "attempt"),
        Integer.parseInt(field(lines.get(2), "split")),
        Long.parseLong(field(lines.get(3), "journal")), Collections.unmodifiableMap(parts));
  }

  private static String field(String line, String key) {
    if (!line.startsWith(key + " ")) {
      throw new IllegalArgumentException("expected '" + key + " ...', found '" + line + "'");
    }
    return line.substring(key.length() + 1);
  }

  private static int checksum(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    return (int) crc.getValue();
  }
}
