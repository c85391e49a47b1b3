package org.hpf.internal.write;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.JournalHeader;

/**
 * What merges running elsewhere (map tasks) must agree on to write parts of one change: the
 * archive's id and layout, the generation the change builds on, the first part id the change may
 * use, the token of the lock that the change's driver holds, and the access classes the change
 * introduces (ids after the base generation's, which the listing gave its sources), and the end
 * of the part ids the listing set aside for its shares. Travels in a job's {@link Configuration}.
 *
 * @param partIdLimit the first part id no share may use: the generation the change commits has
 *     its part id floor at least there, so that parts a share wrote and the commit did not take
 *     are garbage to the collector
 */
public record StagedPlan(String token, ArchiveId archiveId, JournalHeader header,
    int firstPartId, List<MemberAccess> accesses, int partIdLimit) {
  private static final String TOKEN = "hpf.staged.token";
  private static final String ARCHIVE_ID = "hpf.staged.archive-id";
  private static final String HEADER = "hpf.staged.header";
  private static final String FIRST_PART = "hpf.staged.first-part";
  private static final String ACCESSES = "hpf.staged.accesses";
  private static final String PART_LIMIT = "hpf.staged.part-limit";

  public StagedPlan {
    accesses = List.copyOf(accesses);
  }

  /**
   * A plan that introduces no access class and has set no part ids aside (yet: see {@link
   * #withListing}).
   */
  public StagedPlan(String token, ArchiveId archiveId, JournalHeader header, int firstPartId) {
    this(token, archiveId, header, firstPartId, List.of(), firstPartId);
  }

  /**
   * This plan once its listing is done: introducing {@code introduced}, the classes the listing
   * met first, with part ids set aside up to {@code partIdLimit}.
   */
  public StagedPlan withListing(List<MemberAccess> introduced, int partIdLimit) {
    return new StagedPlan(token, archiveId, header, firstPartId, introduced, partIdLimit);
  }

  /** Writes the plan into {@code conf}. */
  public void store(Configuration conf) {
    conf.set(TOKEN, token);
    conf.set(ARCHIVE_ID, archiveId.high() + ":" + archiveId.low());
    conf.set(HEADER, Base64.getEncoder().encodeToString(header.toBytes()));
    conf.setInt(FIRST_PART, firstPartId);
    conf.set(ACCESSES, Base64.getEncoder().encodeToString(encode(accesses)));
    conf.setInt(PART_LIMIT, partIdLimit);
  }

  private static byte[] encode(List<MemberAccess> accesses) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeInt(accesses.size());
      for (MemberAccess access : accesses) {
        out.writeUTF(access.owner());
        out.writeUTF(access.group());
        out.writeShort(access.mode());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  private static List<MemberAccess> decode(String text) {
    if (text == null) {
      return List.of();
    }
    try (java.io.DataInputStream in = new java.io.DataInputStream(
        new java.io.ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      int count = in.readInt();
      List<MemberAccess> accesses = new java.util.ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        accesses.add(new MemberAccess(in.readUTF(), in.readUTF(), in.readShort() & 0xFFFF));
      }
      return accesses;
    } catch (java.io.IOException e) {
      throw new IllegalStateException("bad " + ACCESSES + " in the job configuration", e);
    }
  }

  /** Reads the plan a driver stored in {@code conf}. */
  public static StagedPlan load(Configuration conf) throws CorruptArchiveException {
    String token = conf.get(TOKEN);
    String id = conf.get(ARCHIVE_ID);
    String header = conf.get(HEADER);
    if (token == null || id == null || header == null) {
      throw new IllegalStateException("the job configuration has no hpf plan (" + TOKEN
          + "): was it submitted by hpf's archive job?");
    }
    String[] halves = id.split(":");
    return new StagedPlan(token,
        new ArchiveId(Long.parseLong(halves[0]), Long.parseLong(halves[1])),
        JournalHeader.read(ByteBuffer.wrap(Base64.getDecoder().decode(header)), HEADER,
            org.hpf.internal.format.FileKind.JOURNAL.version()),
        conf.getInt(FIRST_PART, -1), decode(conf.get(ACCESSES)),
        conf.getInt(PART_LIMIT, conf.getInt(FIRST_PART, -1)));
  }

  /** True for a change that creates the archive. */
  public boolean creates() {
    return header.operation() == JournalHeader.CREATE;
  }
}
