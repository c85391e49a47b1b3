package org.hpf.internal.build;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.hpf.internal.write.Source;

/**
 * One file of the job's source listing: member name, path, length, modification time and the
 * access class the driver gave it.
 */
public final class ListedSource implements Writable {
  private final Text name = new Text();
  private final Text path = new Text();
  private long length;
  private long mtimeMillis;
  private int access;

  public ListedSource() {}

  ListedSource(Source source, int access) {
    name.set(source.name());
    path.set(source.path().toString());
    length = source.length();
    mtimeMillis = source.mtimeMillis();
    this.access = access;
  }

  int access() {
    return access;
  }

  long length() {
    return length;
  }

  String name() {
    return name.toString();
  }

  /** The source to merge (a new object: the reader reuses this one). */
  Source toSource(Configuration conf) throws IOException {
    Path file = new Path(path.toString());
    return new Source(name.toString(), file.getFileSystem(conf), file, length, mtimeMillis);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    name.write(out);
    path.write(out);
    out.writeLong(length);
    out.writeLong(mtimeMillis);
    out.writeShort(access);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    name.readFields(in);
    path.readFields(in);
    length = in.readLong();
    mtimeMillis = in.readLong();
    access = in.readShort() & 0xFFFF;
  }
}
