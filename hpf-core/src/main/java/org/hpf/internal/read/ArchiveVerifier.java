package org.hpf.internal.read;

import com.google.common.collect.PeekingIterator;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.format.SealedFile;
import org.hpf.internal.index.IndexFileReader;
import org.hpf.internal.index.RecordStreams;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Checks a whole generation: every index file and part file byte by byte against its
 * checksum, every record against the directory and the parts, every listed member read back
 * through the index (all its checksums), and the manifest's counts against what is there.
 * Problems are collected, not thrown, so one run reports all of them.
 */
public final class ArchiveVerifier {
  /** The outcome: what was checked and every problem found. */
  public record Report(long members, long bytesRead, int indexFiles, int parts,
      List<String> problems) {
    public boolean ok() {
      return problems.isEmpty();
    }
  }

  /** Receives progress: called once per member checked, with its length. */
  public interface Progress {
    void member(long bytes);
  }

  private final ArchiveStorage storage;
  private final HpfReader reader;
  private final List<String> problems = new ArrayList<>();
  private long bytesRead;

  private ArchiveVerifier(ArchiveStorage storage, HpfReader reader) {
    this.storage = storage;
    this.reader = reader;
  }

  /**
   * Verifies the archive; a file of it that this user may not read fails the whole check with
   * {@link AccessDeniedException}, naming the first such file: it is no damage, and every
   * problem after it would only repeat it.
   */
  public static Report verify(ArchiveStorage storage, ReaderOptions options, Progress progress)
      throws IOException {
    try (HpfReader reader = HpfReader.open(storage, options)) {
      return new ArchiveVerifier(storage, reader).run(progress);
    }
  }

  /** Problems listed in full; past this many only their number grows. */
  static final int MAX_PROBLEMS = 1000;

  private Report run(Progress progress) throws AccessDeniedException {
    Manifest manifest = reader.manifest();
    int indexFiles = 0;
    for (int layer = 0; layer < reader.layers().size(); layer++) {
      DirectoryFile directory = reader.layers().get(layer);
      long layerRecords = 0;
      for (BucketRef ref : directory.buckets()) {
        if (ref.recordCount() == 0) {
          continue;
        }
        indexFiles++;
        List<IndexRecord> bucket;
        try {
          IndexFileReader.Contents contents =
              IndexFileReader.readChecked(storage, manifest.archiveId(), ref);
          bytesRead += ref.indexFileLength();
          bucket = contents.records();
          if (contents.functionProblem() != null) {
            problem(ref.indexFile() + ": its function cannot be used, so its members are found "
                + "by searching its records (" + contents.functionProblem() + ")");
          }
        } catch (IOException e) {
          failure(e, e.getMessage());
          continue;
        }
        for (IndexRecord record : bucket) {
          layerRecords++;
          if (directory.buckets().get(directory.slots()[DirectoryFile.slotOf(record.hash(),
              directory.globalDepth())]) != ref) {
            problem(ref.indexFile() + ": record " + record.hash() + " belongs to another "
                + "bucket");
          }
        }
      }
      check(layerRecords == manifest.layers().get(layer).records(), "index layer " + layer
          + " holds " + layerRecords + " records, the manifest says "
          + manifest.layers().get(layer).records());
    }
    Map<Integer, long[]> perPart = new HashMap<>();
    long records = 0;
    long original = 0;
    long stored = 0;
    try {
      // The layers merged one bucket at a time, newest record winning: the members' records.
      PeekingIterator<IndexRecord> effective = RecordStreams.empty();
      for (DirectoryFile layer : reader.layers()) {
        effective = RecordStreams.newestWins(effective,
            RecordStreams.layer(storage, manifest.archiveId(), layer), false);
      }
      while (effective.hasNext()) {
        IndexRecord record = effective.next();
        if (record.isTombstone()) {
          continue;
        }
        records++;
        original += record.originalLength();
        stored += record.entryLength();
        PartInfo part = manifest.part(record.part());
        if (part == null || record.offset() + record.entryLength()
            > part.length() - FileFooter.SIZE) {
          problem("record " + record.hash() + " points outside "
              + ArchiveLayout.part(record.part()));
          continue;
        }
        long[] live = perPart.computeIfAbsent(record.part(), k -> new long[2]);
        live[0]++;
        live[1] += record.entryLength();
      }
    } catch (UncheckedIOException e) {
      failure(e.getCause(), e.getCause().getMessage());
    }
    check(records == manifest.fileCount(), "index holds " + records
        + " records, the manifest says " + manifest.fileCount() + " files");
    check(original == manifest.originalBytes(), "records sum to " + original
        + " original bytes, the manifest says " + manifest.originalBytes());
    check(stored == manifest.storedBytes(), "records sum to " + stored
        + " stored bytes, the manifest says " + manifest.storedBytes());
    for (PartInfo part : manifest.parts()) {
      long[] live = perPart.getOrDefault(part.id(), new long[2]);
      check(live[0] == part.liveEntries() && live[1] == part.liveBytes(),
          ArchiveLayout.part(part.id()) + ": " + live[0] + " live entries of " + live[1]
              + " bytes, the manifest says " + part.liveEntries() + " of " + part.liveBytes());
      checkWholeFile(ArchiveLayout.part(part.id()), part.length());
    }
    long members = checkMembers(progress);
    check(members == manifest.fileCount(), "names list " + members + " files, the manifest "
        + "says " + manifest.fileCount());
    if (denied != null) {
      throw new AccessDeniedException(storage.location(), null, denied);
    }
    if (moreProblems > 0) {
      problems.add("... and " + moreProblems + " more problems");
    }
    return new Report(members, bytesRead, indexFiles, manifest.parts().size(),
        List.copyOf(problems));
  }

  private long moreProblems;
  /** The first refusal to read a file of the archive, as the file system said it; or null. */
  private volatile String denied;

  /** A problem, or a refusal to read a file, which is kept apart (the first only). */
  private void failure(Throwable e, String text) {
    String refusal = refusal(e);
    if (refusal == null) {
      problem(text);
    } else if (denied == null) {
      denied = refusal;
    }
  }

  /**
   * The first line of {@code e} when it, or a cause, says that this user may not read a file
   * (HDFS's message names the file, the user and the file's mode; the local file system's the
   * file); null otherwise.
   */
  static String refusal(Throwable e) {
    for (int depth = 0; e != null && depth < 20; depth++, e = e.getCause()) {
      boolean local = e instanceof FileNotFoundException
          && String.valueOf(e.getMessage()).endsWith("(Permission denied)");
      if (e instanceof org.apache.hadoop.security.AccessControlException
          || e instanceof AccessDeniedException || local) {
        String message = String.valueOf(e.getMessage()).strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline).strip();
      }
    }
    return null;
  }

  private void problem(String text) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(text);
    } else {
      moreProblems++;
    }
  }

  /** Members read back at once: gets are latency-bound on HDFS, so they overlap. */
  static final int READ_THREADS = 8;
  private static final int BATCH = 512;

  /**
   * Reads every listed member through the index: all of its checksums are checked. Members
   * are read by {@link #READ_THREADS} threads a batch at a time, so memory stays bounded.
   */
  private long checkMembers(Progress progress) {
    long members = 0;
    ExecutorService pool = Executors.newFixedThreadPool(READ_THREADS, runnable -> {
      Thread thread = new Thread(runnable, "hpf-verify");
      thread.setDaemon(true);
      return thread;
    });
    List<NameEntry> batch = new ArrayList<>(BATCH);
    try (var names = reader.listEntries()) {
      for (NameEntry entry : (Iterable<NameEntry>) names::iterator) {
        members++;
        batch.add(entry);
        if (batch.size() == BATCH) {
          checkBatch(batch, pool, progress);
          batch.clear();
        }
      }
      checkBatch(batch, pool, progress);
    } catch (IOException | UncheckedIOException e) {
      failure(e, "names: " + e.getMessage());
    } finally {
      pool.shutdownNow();
    }
    return members;
  }

  private void checkBatch(List<NameEntry> batch, ExecutorService pool, Progress progress) {
    List<Future<String>> checks = new ArrayList<>(batch.size());
    for (NameEntry entry : batch) {
      checks.add(pool.submit(() -> checkMember(entry)));
    }
    for (int i = 0; i < checks.size(); i++) {
      String problem;
      try {
        problem = checks.get(i).get();
      } catch (ExecutionException e) {
        problem = "'" + batch.get(i).name() + "': " + e.getCause();
        failure(e.getCause(), problem);
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problem("interrupted");
        return;
      }
      if (problem == DENIED) {
        continue; // kept as the refusal
      }
      if (problem != null) {
        problem(problem);
      } else {
        bytesRead += batch.get(i).length();
        progress.member(batch.get(i).length());
      }
    }
  }

  /**
   * Reads one member whole, and its status from the index and from its entry; returns what is
   * wrong with it, or null.
   */
  private String checkMember(NameEntry entry) {
    try {
      EntryStatus fromEntry = reader.checkedStat(entry.name());
      EntryStatus fromIndex = reader.stat(entry.name());
      if (!fromIndex.equals(fromEntry)) {
        return "'" + entry.name() + "': the index says " + fromIndex + ", its entry "
            + fromEntry;
      }
      if (fromEntry.mtimeMillis() != entry.mtimeMillis()) {
        return "'" + entry.name() + "' was modified at " + fromEntry.mtimeMillis()
            + ", the names file says " + entry.mtimeMillis();
      }
      org.hpf.internal.format.EntryLocation indexed =
          org.hpf.internal.format.EntryLocation.of(reader.record(entry.name()));
      if (entry.location() != null && !entry.location().equals(indexed)) {
        return "'" + entry.name() + "' is at " + indexed + ", the names file says "
            + entry.location();
      }
      long length;
      try (java.io.InputStream in = reader.open(entry.name())) {
        length = in.transferTo(java.io.OutputStream.nullOutputStream());
      }
      return length == entry.length() ? null : "'" + entry.name() + "' is " + length
          + " bytes, the names file says " + entry.length();
    } catch (IOException e) {
      if (refusal(e) != null) {
        failure(e, null);
        return DENIED;
      }
      return e.getMessage();
    }
  }

  /** What {@link #checkMember} returns for a member whose file this user may not read. */
  private static final String DENIED = new String("denied");

  private void checkWholeFile(String name, long expectedLength) {
    try (ArchiveInput in = storage.open(name)) {
      if (in.length() != expectedLength) {
        problem(name + ": " + in.length() + " bytes, the manifest says " + expectedLength);
        return;
      }
      bytesRead += in.length();
      check(SealedFile.footerMatches(in), name + ": footer or file checksum does not match");
    } catch (IOException e) {
      failure(e, name + ": " + e.getMessage());
    }
  }

  private void check(boolean ok, String problem) {
    if (!ok) {
      problem(problem);
    }
  }
}
