package org.hpf.internal.build;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.HpfException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.write.StagedMerge;
import org.hpf.internal.write.StagedShare;

/**
 * The job commit's view of the committed tasks: exactly one per split of the driver's listing,
 * whose splits add up to the driver's survey, each with the journal its seal describes; their
 * parts moved into the archive directory, without replacing a file there (on a store without
 * rename they were written there).
 */
final class CommittedShares {
  private CommittedShares() {}

  /**
   * Checks the committed tasks below {@code tasks} and moves their parts into the archive
   * ({@code storage}); fails, having published nothing, if they do not match the listing.
   */
  static List<StagedShare> collect(Configuration conf, ArchiveStorage storage, Path tasks)
      throws IOException {
    Path staging = JobSettings.staging(conf);
    FileSystem fs = staging.getFileSystem(conf);
    List<SourceSplit> splits = SourceListing.readSplits(fs, new Path(staging, "splits"));
    checkSurvey(conf, splits);
    String[] dirs = new String[splits.size()];
    ShareSeal[] seals = new ShareSeal[splits.size()];
    for (FileStatus committed : fs.listStatus(tasks)) {
      String dir = relative(storage, committed.getPath());
      if (committed.isFile()) {
        // A store without rename: the task's file names the attempt whose work it is.
        dir = relative(storage, StagedCommitter.workPath(conf,
            StagedCommitter.winner(storage, dir)));
      }
      ShareSeal seal = ShareSeal.read(storage, dir);
      if (seal.split() < 0 || seal.split() >= splits.size()) {
        throw refused(committed.getPath() + " holds the work of split " + seal.split()
            + ", which the listing does not have");
      }
      if (seals[seal.split()] != null) {
        throw refused("split " + seal.split() + " has two committed journals, of "
            + seals[seal.split()].attempt() + " and " + seal.attempt());
      }
      dirs[seal.split()] = dir;
      seals[seal.split()] = seal;
    }
    List<StagedShare> shares = new ArrayList<>(splits.size());
    for (int i = 0; i < splits.size(); i++) {
      if (seals[i] == null) {
        throw refused(splits.get(i) + " has no committed journal");
      }
      shares.add(share(storage, dirs[i], seals[i], splits.get(i)));
    }
    return shares;
  }

  /** The splits hold what the driver's walk of the sources counted. */
  private static void checkSurvey(Configuration conf, List<SourceSplit> splits)
      throws HpfException {
    long files = 0;
    long bytes = 0;
    for (SourceSplit split : splits) {
      files += split.files();
      bytes += split.getLength();
    }
    long surveyFiles = conf.getLong(JobSettings.SURVEY_FILES, -1);
    long surveyBytes = conf.getLong(JobSettings.SURVEY_BYTES, -1);
    if (files != surveyFiles || bytes != surveyBytes) {
      throw refused("the splits hold " + files + " files (" + bytes + " bytes) where the "
          + "driver's survey of the sources counted " + surveyFiles + " (" + surveyBytes
          + " bytes)");
    }
  }

  /** Moves the share's parts into the archive; the commit proves each is the sealed one. */
  private static StagedShare share(ArchiveStorage storage, String dir, ShareSeal seal,
      SourceSplit split) throws IOException {
    String journal = dir + "/" + StagedMerge.JOURNAL;
    long length;
    try (var in = storage.open(journal)) {
      length = in.length();
    }
    if (length != seal.journalLength()) {
      throw refused(storage.location(journal) + " is " + length + " bytes long where "
          + seal.attempt() + " sealed it at " + seal.journalLength());
    }
    for (int id : seal.parts().keySet()) {
      String part = ArchiveLayout.part(id);
      String staged = dir + "/" + part;
      if (storage.exists(staged)) {
        try {
          storage.rename(staged, part);
        } catch (FileAlreadyExistsException e) {
          // Another file of that name: the commit refuses it unless it is this very part.
        }
      }
    }
    return new StagedShare(seal.attempt(), new Path(storage.location(journal)), seal.parts(),
        split.files(), split.getLength());
  }

  /** {@code path}'s name inside the archive directory. */
  private static String relative(ArchiveStorage storage, Path path) {
    String root = new Path(storage.location()) + "/"; // a location may end with a slash
    String name = path.toString();
    if (!name.startsWith(root)) {
      throw new IllegalStateException(path + " is not inside the archive " + root);
    }
    return name.substring(root.length());
  }

  private static HpfException refused(String why) {
    return new HpfException(why + "; nothing was committed");
  }
}
