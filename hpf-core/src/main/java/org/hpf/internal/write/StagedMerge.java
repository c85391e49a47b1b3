package org.hpf.internal.write;

import java.io.IOException;
import java.util.List;
import org.hpf.internal.format.JournalWriter;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * One share of a staged change (a map task's): merges members into part files, with ids in a
 * range of its own, and journals them in the {@value #JOURNAL} file of its work directory.
 * Nothing here belongs to the archive until the change's driver commits the work (see {@link
 * StagedChange#commit}). Where the store renames, the parts are in the work directory too, and a
 * work directory that is never committed is simply deleted; on an object store, which does not,
 * they are written where the archive's parts are, under names no other share uses, and a share
 * that fails deletes those it wrote. {@link #add} may be called from several threads at once.
 */
public final class StagedMerge implements AutoCloseable {
  /** The journal of a work directory: the records of its members, for the commit. */
  public static final String JOURNAL = "journal";

  private final JournalWriter journal;
  private final MergeLanes lanes;
  /** The parts' storage where they are written in place, knowing which are this share's. */
  private final OwnFiles inPlace;
  private boolean finished;

  /**
   * @param work the directory to write the journal into (empty)
   * @param parts where to write parts: {@code work}, or the archive directory
   * @param firstPartId the first part id this share may use
   * @param partLimit the first part id it may not use
   */
  public StagedMerge(ArchiveStorage work, ArchiveStorage parts, StagedPlan plan,
      WriterOptions options, int firstPartId, int partLimit) throws IOException {
    this.inPlace = parts == work ? null
        : new OwnFiles(parts, plan.creates() ? plan.archiveId() : null);
    ArchiveOutput out = work.create(JOURNAL, 0);
    try {
      this.journal = new JournalWriter(out, plan.archiveId(), plan.header());
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
    this.lanes = new MergeLanes(inPlace == null ? work : inPlace, plan.archiveId(), options,
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

  /**
   * Closes what is still open (a share that failed). Its work directory is left for the caller;
   * parts written in place, which no directory holds, are deleted.
   */
  @Override
  public void close() throws IOException {
    if (finished) {
      return;
    }
    try {
      lanes.closeQuietly();
      journal.close();
    } finally {
      if (inPlace != null) {
        inPlace.deleteOwn();
      }
    }
  }
}
