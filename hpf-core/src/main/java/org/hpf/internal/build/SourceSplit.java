package org.hpf.internal.build;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * A map task's share of the sources: {@code files} consecutive records of the listing from byte
 * {@code start}, and the part ids its merge may use, {@code firstPartId} up to (not including)
 * {@code partLimit}. The ranges of the splits of one job never overlap, so tasks, and any two
 * attempts of different tasks, never write the same part. Where attempts write their parts in
 * place, the range is cut into slots, one per attempt ({@link #partIds}).
 */
public final class SourceSplit extends InputSplit implements Writable {
  private int index;
  private String listing;
  private long start;
  private long files;
  private long bytes;
  private int firstPartId;
  private int partLimit;

  public SourceSplit() {}

  SourceSplit(int index, String listing, long start, long files, long bytes, int firstPartId,
      int partLimit) {
    this.index = index;
    this.listing = listing;
    this.start = start;
    this.files = files;
    this.bytes = bytes;
    this.firstPartId = firstPartId;
    this.partLimit = partLimit;
  }

  /** Where the split is in the listing: MapReduce runs splits in an order of its own. */
  int index() {
    return index;
  }

  String listing() {
    return listing;
  }

  long start() {
    return start;
  }

  long files() {
    return files;
  }

  int firstPartId() {
    return firstPartId;
  }

  int partLimit() {
    return partLimit;
  }

  /** The part ids {@code first} to {@code limit} (exclusive) of one attempt. */
  record PartIds(int first, int limit) {}

  /** Slot {@code slot}'s ids, of a range cut into {@code slots} equal slots. */
  PartIds partIds(int slot, int slots) {
    int span = (partLimit - firstPartId) / slots;
    return new PartIds(firstPartId + slot * span, firstPartId + (slot + 1) * span);
  }

  @Override
  public long getLength() {
    return bytes;
  }

  @Override
  public String[] getLocations() {
    return new String[0]; // a share's files are spread over the cluster
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(index);
    Text.writeString(out, listing);
    out.writeLong(start);
    out.writeLong(files);
    out.writeLong(bytes);
    out.writeInt(firstPartId);
    out.writeInt(partLimit);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    index = in.readInt();
    listing = Text.readString(in);
    start = in.readLong();
    files = in.readLong();
    bytes = in.readLong();
    firstPartId = in.readInt();
    partLimit = in.readInt();
  }

  @Override
  public String toString() {
    return "split " + index + ": " + files + " files (" + bytes + " bytes) from " + listing
        + "@" + start + ", parts " + firstPartId + ".." + (partLimit - 1);
  }
}
