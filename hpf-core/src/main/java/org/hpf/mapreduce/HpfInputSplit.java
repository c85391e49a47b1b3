package org.hpf.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * A range {@code [start, end)} of one part file of one archive generation, holding the entries
 * of the members it covers (and possibly dead entries or entries of other members, which the
 * record reader skips). The range starts at an entry and ends at the end of one.
 */
public final class HpfInputSplit extends InputSplit implements Writable {
  private String archive;
  private long generation;
  private String selection;
  private boolean exact;
  private int part;
  private long start;
  private long end;
  private long members;
  private long bytes;
  private String[] hosts = new String[0];

  /** An empty split, for Hadoop to read one into ({@link #readFields}). */
  public HpfInputSplit() {}

  HpfInputSplit(String archive, long generation, String selection, boolean exact, int part,
      long start, long end, long members, long bytes, String[] hosts) {
    this.archive = archive;
    this.generation = generation;
    this.selection = selection;
    this.exact = exact;
    this.part = part;
    this.start = start;
    this.end = end;
    this.members = members;
    this.bytes = bytes;
    this.hosts = hosts;
  }

  /** The archive directory (a path on its file system, not an hpf:// path). */
  String archive() {
    return archive;
  }

  /** The generation the split was computed on. */
  long generation() {
    return generation;
  }

  /** True if {@code name} is selected: equal to the selection or below it (a directory). */
  boolean selects(String name) {
    return exact ? name.equals(selection) : name.startsWith(selection);
  }

  int part() {
    return part;
  }

  long start() {
    return start;
  }

  long end() {
    return end;
  }

  /** Members of the selection whose entries are in the range. */
  long members() {
    return members;
  }

  /** Their total length in bytes (uncompressed). */
  @Override
  public long getLength() {
    return bytes;
  }

  @Override
  public String[] getLocations() {
    return hosts;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, archive);
    out.writeLong(generation);
    Text.writeString(out, selection);
    out.writeBoolean(exact);
    out.writeInt(part);
    out.writeLong(start);
    out.writeLong(end);
    out.writeLong(members);
    out.writeLong(bytes);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    archive = Text.readString(in);
    generation = in.readLong();
    selection = Text.readString(in);
    exact = in.readBoolean();
    part = in.readInt();
    start = in.readLong();
    end = in.readLong();
    members = in.readLong();
    bytes = in.readLong();
    hosts = new String[0];
  }

  @Override
  public String toString() {
    return archive + " generation " + generation + " part " + part + " [" + start + ", " + end
        + "): " + members + " members, " + bytes + " bytes";
  }
}
