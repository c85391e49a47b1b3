package org.hpf.internal.write;

import java.io.IOException;
import java.util.List;
import org.hpf.internal.format.JournalWriter;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * One share of a staged change (a map task's): merges members into part files of a work
 * directory, with ids in a range of its own, and journals them in the directory's
 * {@value #JOURNAL} file. Nothing here belongs to the archive until the change's driver commits
 * the work (see {@link StagedChange#commit}); a work directory that is never committed is simply
 * deleted. {@link #add} may be called from several threads at once.
 */
public final class StagedMerge implements AutoCloseable {
  /** The journal of a work directory: the records of its members, for the commit. */
  public static final String JOURNAL = "journal";

  private final ArchiveStorage work;
  private final JournalWriter journal;
  private final MergeLanes lanes;
  private boolean finished;

  /**
   * @param work the directory to write into (empty)
   * @param firstPartId the first part id this share may use
   * @param partLimit the first part id it may not use
   */
  public StagedMerge(ArchiveStorage work, StagedPlan plan, WriterOptions options,
      int firstPartId, int partLimit) throws IOException {
    this.work = work;
    ArchiveOutput out = work.create(JOURNAL, 0);
    try {
      this.journal = new JournalWriter(out, plan.archiveId(), plan.header());
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
    this.lanes = new MergeLanes(work, plan.archiveId(), options,
        plan.header().blockSize(), plan.header().partSize(), journal, firstPartId, partLimit);
  }

  /**
   * Merges one source file, which must not change while it is read, as a member of access
   * class {@code access} (which the plan's driver gave it).
   */
  public void add(Source source, int access) throws IOException {
    MemberNames.check(source.name());
    try (var in = EntryEncoder.open(source)) {
      lanes.write(EntryEncoder.member(source, in), access);
    }
  }

  /** Seals every part and closes the journal; returns the parts written. */
  public List<PartInfo> finish() throws IOException {
    List<PartInfo> parts = lanes.sealAll();
    journal.close();
    finished = true;
    return parts;
  }

  /** Closes what is still open (a share that failed); its files are left for the caller. */
  @Override
  public void close() throws IOException {
    if (!finished) {
      lanes.closeQuietly();
      journal.close();
    }
  }
}
