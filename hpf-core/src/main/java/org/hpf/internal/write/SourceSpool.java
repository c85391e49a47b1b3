package org.hpf.internal.write;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;
import org.hpf.internal.write.spill.EntryQueue;
import org.hpf.internal.write.spill.Scratch;

/**
 * The sources one walk found, kept in walk order for the merge, so that the sources are walked
 * once: the merge reads the very files the survey checked, with the length, modification time
 * and access it saw. The heap does not grow with their number (they spill to the scratch
 * directory). Each source is its file system's index, name, path, length, modification time
 * and access.
 */
final class SourceSpool implements Closeable {
  private final EntryQueue entries;
  private final List<FileSystem> fileSystems = new ArrayList<>();
  private final Map<FileSystem, Integer> fileSystemIds = new IdentityHashMap<>();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(buffer);

  SourceSpool(Scratch scratch) {
    this.entries = new EntryQueue(scratch, "sources");
  }

  void add(Source source) throws IOException {
    buffer.reset();
    out.writeInt(fileSystemIds.computeIfAbsent(source.fs(), fs -> {
      fileSystems.add(fs);
      return fileSystems.size() - 1;
    }));
    writeString(source.name());
    writeString(source.path().toUri().toString());
    out.writeLong(source.length());
    out.writeLong(source.mtimeMillis());
    MemberAccess access = source.access();
    out.writeBoolean(access != null);
    if (access != null) {
      writeString(access.owner());
      writeString(access.group());
      out.writeInt(access.mode());
    }
    entries.add(buffer.toByteArray());
  }

  long count() {
    return entries.count();
  }

  /** The sources in the order added; single use. */
  Iterator<Source> sources() throws IOException {
    Iterator<byte[]> read = entries.read();
    return new Iterator<Source>() {
      @Override
      public boolean hasNext() {
        return read.hasNext();
      }

      @Override
      public Source next() {
        try {
          return decode(read.next());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  private Source decode(byte[] entry) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry));
    FileSystem fs = fileSystems.get(in.readInt());
    String name = readString(in);
    Path path;
    try {
      path = new Path(new URI(readString(in)));
    } catch (URISyntaxException e) {
      throw new IOException("a spooled source's path does not parse: " + e.getMessage(), e);
    }
    long length = in.readLong();
    long mtime = in.readLong();
    MemberAccess access = in.readBoolean()
        ? new MemberAccess(readString(in), readString(in), in.readInt()) : null;
    return new Source(name, fs, path, length, mtime, access);
  }

  private void writeString(String value) throws IOException {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(utf8.length);
    out.write(utf8);
  }

  private static String readString(DataInputStream in) throws IOException {
    byte[] utf8 = new byte[in.readInt()];
    in.readFully(utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    entries.close();
  }
}
