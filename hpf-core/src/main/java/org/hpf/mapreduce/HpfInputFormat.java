package org.hpf.mapreduce;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryLocation;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;

/**
 * Reads the members of hpf archives as (name, bytes) records, with splits that group many
 * members by part file and block: a job over a million small members runs about one task per
 * block of archived data, scheduled on the hosts that hold that block.
 *
 * <p>Input paths are set as for any FileInputFormat ({@link FileInputFormat#addInputPath}) and
 * are either archive directories ({@code hdfs://nn/data/logs.hpf}: every member) or
 * {@code hpf://} paths inside archives (a directory: the members below it; a member: that one).
 *
 * <p>Planning, done by the client that submits the job, reads the manifest, the names segments
 * of the selection (each name with where its entry is; an archive of format 1 looks each name
 * up instead, one 40-byte read per member) and the block locations of each part with selected
 * members, and keeps one group per (part, block) in memory. A split is a byte range of one
 * part; its record reader reads that range once, in order, and returns the selected members
 * whose current entries are there, each checked as a get checks it. If a writer commits a new
 * generation between planning and a task, the task fails rather than read a changed archive.
 */
public class HpfInputFormat extends InputFormat<Text, BytesWritable> {

  /**
   * Adds an archive, or a directory or member inside one, to a job's input.
   *
   * @param job the job
   * @param path an {@code hpf://} path
   * @throws IOException if the path cannot be qualified
   */
  public static void addInputPath(org.apache.hadoop.mapreduce.Job job, Path path)
      throws IOException {
    FileInputFormat.addInputPath(job, path);
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    List<InputSplit> splits = new ArrayList<>();
    for (Path input : FileInputFormat.getInputPaths(context)) {
      splits.addAll(splits(conf, input));
    }
    return splits;
  }

  /** The splits of one input path. */
  static List<HpfInputSplit> splits(Configuration conf, Path input) throws IOException {
    FileSystem fs = input.getFileSystem(conf);
    Path archive;
    String member;
    if (fs instanceof HpfFileSystem hpf) {
      archive = hpf.archiveOf(input);
      member = hpf.memberOf(input);
    } else {
      archive = fs.makeQualified(input);
      member = "";
    }
    try (HpfReader reader = HpfReader.open(conf, archive)) {
      IndexRecord exactRecord = member.isEmpty() ? null : reader.record(member);
      boolean exact = exactRecord != null;
      String selection = exact || member.isEmpty() ? member : member + "/";
      long blockSize = reader.manifest().blockSize();
      Map<Long, Group> groups = new TreeMap<>();
      try (Stream<NameEntry> names = exact
          ? Stream.of(NameEntry.present(member, exactRecord.originalLength(), 0,
              EntryLocation.of(exactRecord)))
          : reader.listEntries(selection)) {
        for (Iterator<NameEntry> it = names.iterator(); it.hasNext();) {
          NameEntry entry = it.next();
          EntryLocation location = reader.location(entry);
          if (location == null) {
            continue; // listed but deleted: a names segment lags the index only if corrupt
          }
          long block = location.offset() / blockSize;
          int part = location.part();
          groups.computeIfAbsent(((long) part << 32) | block, k -> new Group(part))
              .add(location, entry.length());
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      if (groups.isEmpty() && !member.isEmpty()) {
        throw new FileNotFoundException("input " + input + ": nothing in archive " + archive
            + " is named " + member + " or below it");
      }
      FileSystem archiveFs = archive.getFileSystem(conf);
      Map<Integer, BlockLocation[]> partBlocks = new HashMap<>();
      List<HpfInputSplit> splits = new ArrayList<>();
      for (Group group : groups.values()) {
        BlockLocation[] blocks = partBlocks.get(group.part);
        if (blocks == null) {
          Path part = new Path(archive, ArchiveLayout.part(group.part));
          blocks = archiveFs.getFileBlockLocations(part, 0, Long.MAX_VALUE);
          partBlocks.put(group.part, blocks);
        }
        splits.add(new HpfInputSplit(archive.toString(), reader.generation(), selection, exact,
            group.part, group.start, group.end, group.members, group.bytes,
            hosts(blocks, group.start, group.end)));
      }
      return splits;
    }
  }

  /** The hosts holding bytes {@code [start, end)} of a part, those holding most first. */
  private static String[] hosts(BlockLocation[] blocks, long start, long end)
      throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    if (blocks != null) {
      for (BlockLocation block : blocks) {
        long overlap = Math.min(end, block.getOffset() + block.getLength())
            - Math.max(start, block.getOffset());
        if (overlap > 0) {
          for (String host : block.getHosts()) {
            bytes.merge(host, overlap, Long::sum);
          }
        }
      }
    }
    return bytes.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .map(Map.Entry::getKey).toArray(String[]::new);
  }

  @Override
  public RecordReader<Text, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new HpfRecordReader();
  }

  /** The members of one (part, block): the range their entries span. */
  private static final class Group {
    final int part;
    long start = Long.MAX_VALUE;
    long end;
    long members;
    long bytes;

    Group(int part) {
      this.part = part;
    }

    void add(EntryLocation entry, long length) {
      start = Math.min(start, entry.offset());
      end = Math.max(end, entry.offset() + entry.entryLength());
      members++;
      bytes += length;
    }
  }
}
