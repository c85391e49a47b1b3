package org.hpf.write;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.hpf.format.ArchiveId;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.IndexRecord;
import org.hpf.format.JournalHeader;
import org.hpf.format.JournalWriter;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.hdfs.HdfsIntegration;
import org.hpf.io.ArchiveStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds sources to an archive, shared by create and append: merge them into new parts while
 * journaling every record, put the records into the next generation, commit, drop the journal.
 */
final class Addition {
  private static final Logger LOG = LoggerFactory.getLogger(Addition.class);

  private Addition() {}

  /** What was merged and committed. */
  record Outcome(GenerationCommit.Result commit, List<PartInfo> parts, long mergeNanos,
      long indexNanos) {}

  /**
   * @param replaced the current record of each source name that already exists (replace mode)
   */
  static Outcome run(ArchiveStorage storage, ArchiveId id, GenerationCommit commit,
      List<Source> sources, Map<String, IndexRecord> replaced, WriterOptions options,
      long blockSize, int firstPartId, JournalHeader header, ExecutorService pool)
      throws IOException {
    long start = System.nanoTime();
    long totalBytes = sources.stream().mapToLong(Source::length).sum();
    options.progress().started(sources.size(), totalBytes);
    options.progress().phase("merging");
    String journalName = ArchiveLayout.journal(commit.generation());
    IndexRecord[] records;
    List<PartInfo> parts;
    try (JournalWriter journal = new JournalWriter(storage.create(journalName, 0), id, header)) {
      // On HDFS the merge's parts may be LazyPersist (HdfsOptions#partStoragePolicy).
      MergePhase merge = new MergePhase(HdfsIntegration.forMerge(storage), id, options,
          blockSize, header.partSize(), journal, sources, firstPartId);
      records = merge.run(pool);
      parts = merge.parts();
    }
    long merged = System.nanoTime();
    options.progress().phase("indexing");
    for (PartInfo part : parts) {
      commit.addPart(part.id(), part.length());
    }
    for (int i = 0; i < records.length; i++) {
      Source source = sources.get(i);
      commit.put(source.name(), records[i], source.mtimeMillis(), replaced.get(source.name()));
    }
    GenerationCommit.Result result = commit.commit(pool);
    long committed = System.nanoTime();
    try {
      storage.delete(journalName);
    } catch (IOException e) {
      // Committed already: the journal of a committed generation is ignored and collected.
      LOG.warn("generation {} committed but its journal could not be deleted: {}",
          commit.generation(), e.toString());
    }
    return new Outcome(result, parts, merged - start, committed - merged);
  }
}
