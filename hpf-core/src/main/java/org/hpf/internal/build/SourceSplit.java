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
 * attempts of different tasks, never write the same part.
 */
public final class SourceSplit extends InputSplit implements Writable {
  private String listing;
  private long start;
  private long files;
  private long bytes;
  private int firstPartId;
  private int partLimit;

  public SourceSplit() {}

  SourceSplit(String listing, long start, long files, long bytes, int firstPartId,
      int partLimit) {
    this.listing = listing;
    this.start = start;
    this.files = files;
    this.bytes = bytes;
    this.firstPartId = firstPartId;
    this.partLimit = partLimit;
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
    Text.writeString(out, listing);
    out.writeLong(start);
    out.writeLong(files);
    out.writeLong(bytes);
    out.writeInt(firstPartId);
    out.writeInt(partLimit);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    listing = Text.readString(in);
    start = in.readLong();
    files = in.readLong();
    bytes = in.readLong();
    firstPartId = in.readInt();
    partLimit = in.readInt();
  }

  @Override
  public String toString() {
    return files + " files (" + bytes + " bytes) from " + listing + "@" + start + ", parts "
        + firstPartId + ".." + (partLimit - 1);
  }
}
