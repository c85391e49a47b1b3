package org.hpf.internal.write;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.apache.hadoop.conf.Configuration;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.JournalHeader;

/**
 * What merges running elsewhere (map tasks) must agree on to write parts of one change: the
 * archive's id and layout, the generation the change builds on, the first part id the change may
 * use, and the token of the lock that the change's driver holds. Travels in a job's
 * {@link Configuration}.
 */
public record StagedPlan(String token, ArchiveId archiveId, JournalHeader header,
    int firstPartId) {
  private static final String TOKEN = "hpf.staged.token";
  private static final String ARCHIVE_ID = "hpf.staged.archive-id";
  private static final String HEADER = "hpf.staged.header";
  private static final String FIRST_PART = "hpf.staged.first-part";

  /** Writes the plan into {@code conf}. */
  public void store(Configuration conf) {
    conf.set(TOKEN, token);
    conf.set(ARCHIVE_ID, archiveId.high() + ":" + archiveId.low());
    conf.set(HEADER, Base64.getEncoder().encodeToString(header.toBytes()));
    conf.setInt(FIRST_PART, firstPartId);
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
        conf.getInt(FIRST_PART, -1));
  }

  /** True for a change that creates the archive. */
  public boolean creates() {
    return header.operation() == JournalHeader.CREATE;
  }
}
