package org.hpf.testing;

import java.io.FileNotFoundException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingOutput;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.io.LocalModes;

/**
 * An archive's storage that watches the modes of the archive directory and of everything in it
 * as a writer changes them: after every call that creates, renames or changes access, and when
 * the first byte of each file is written (the file is open and still being written then), it
 * reads the mode of every file and directory below the archive directory from the file system
 * (java.nio on the local one). Each mode seen is kept, in order, per path; and every moment a
 * file or directory had a bit for group or others that the archive directory did not give them
 * then is a breach.
 */
public final class ModeWatchingStorage extends ForwardingStorage {
  private final FileSystem fs;
  private final Path root;
  /** Every mode each path (relative to the root, "" for it) was seen with, in order. */
  private final Map<String, List<Integer>> seen = new TreeMap<>();
  private final List<String> breaches = new ArrayList<>();
  /** Called at every look with the moment and the paths seen; null for none. */
  private volatile java.util.function.BiConsumer<String, java.util.Set<String>> probe;

  public ModeWatchingStorage(ArchiveStorage delegate, FileSystem fs, Path root) {
    super(delegate);
    this.fs = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
    this.root = fs.makeQualified(root);
  }

  /**
   * Has {@code probe} called at every look, with the moment and every path then (relative to
   * the archive directory): to try the files as another user would, while they are written.
   */
  public ModeWatchingStorage probing(
      java.util.function.BiConsumer<String, java.util.Set<String>> probe) {
    this.probe = probe;
    return this;
  }

  /** Each path's modes as seen, in order. */
  public synchronized Map<String, List<Integer>> seen() {
    return new TreeMap<>(seen);
  }

  /** Moments a file or directory gave group or others more than the archive directory did. */
  public synchronized List<String> breaches() {
    return new ArrayList<>(breaches);
  }

  /** Paths ever seen with a mode wider (more bits) than the one they have now. */
  public synchronized List<String> widerThanFinal() throws IOException {
    Map<String, Integer> now = modes(new LinkedHashMap<>());
    List<String> wider = new ArrayList<>();
    seen.forEach((path, modes) -> {
      Integer last = now.get(path);
      for (int mode : modes) {
        if (last != null && (mode & ~last) != 0) {
          wider.add(path + " was " + Integer.toOctalString(mode) + ", is "
              + Integer.toOctalString(last));
          break;
        }
      }
    });
    return wider;
  }

  /** Reads every mode now and checks each against the archive directory's. */
  public synchronized void look(String moment) throws IOException {
    Map<String, Integer> modes = modes(new LinkedHashMap<>());
    Integer rootMode = modes.get("");
    if (rootMode == null) {
      return;
    }
    if (probe != null) {
      probe.accept(moment, modes.keySet());
    }
    modes.forEach((path, mode) -> {
      List<Integer> modesOf = seen.computeIfAbsent(path, p -> new ArrayList<>());
      if (modesOf.isEmpty() || modesOf.get(modesOf.size() - 1) != mode.intValue()) {
        modesOf.add(mode);
      }
      boolean directory = isDirectory(path);
      int allowed = rootMode & (directory ? 0077 : 0066);
      if (!path.isEmpty() && (mode & 0077 & ~allowed) != 0 && breaches.size() < 20) {
        breaches.add(moment + ": " + path + " " + Integer.toOctalString(mode)
            + " in an archive of " + Integer.toOctalString(rootMode));
      }
    });
  }

  private final Map<String, Boolean> directories = new TreeMap<>();

  private boolean isDirectory(String path) {
    return directories.getOrDefault(path, false);
  }

  private Map<String, Integer> modes(Map<String, Integer> into) throws IOException {
    if (fs instanceof RawLocalFileSystem local) {
      java.nio.file.Path top = local.pathToFile(root).toPath();
      if (!Files.exists(top)) {
        return into;
      }
      try (var paths = Files.walk(top)) {
        for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) paths::iterator) {
          String name = top.relativize(p).toString();
          try {
            into.put(name, LocalModes.of(p));
            directories.put(name, Files.isDirectory(p));
          } catch (java.nio.file.NoSuchFileException e) {
            // removed meanwhile
          }
        }
      } catch (java.io.UncheckedIOException e) {
        // a directory removed while walked: the next look sees the rest
      }
      return into;
    }
    try {
      FileStatus top = fs.getFileStatus(root);
      into.put("", (int) top.getPermission().toShort() & 07777);
      directories.put("", true);
      walk(root, "", into);
    } catch (FileNotFoundException e) {
      // not there (yet, or any more)
    }
    return into;
  }

  private void walk(Path dir, String prefix, Map<String, Integer> into) throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      String name = prefix + status.getPath().getName();
      into.put(name, (int) status.getPermission().toShort() & 07777);
      directories.put(name, status.isDirectory());
      if (status.isDirectory()) {
        walk(status.getPath(), name + "/", into);
      }
    }
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    ArchiveOutput out = super.create(name, blockSize);
    look("created " + name);
    return watched(name, out);
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    ArchiveOutput out = super.createMergedPart(name, blockSize);
    look("created " + name);
    return watched(name, out);
  }

  @Override
  public void mkdirs(String dir) throws IOException {
    super.mkdirs(dir);
    look("made " + dir);
  }

  @Override
  public RootAccess createPrivateRoot(String dir) throws IOException {
    RootAccess given = super.createPrivateRoot(dir);
    look("made the archive directory");
    return given;
  }

  @Override
  public void rename(String from, String to) throws IOException {
    super.rename(from, to);
    look("renamed " + from + " to " + to);
  }

  @Override
  public RootAccess setRootAccess(RootAccess access) throws IOException {
    RootAccess applied = super.setRootAccess(access);
    look("gave the archive " + applied);
    return applied;
  }

  @Override
  public org.hpf.internal.hdfs.HdfsReport afterCommit(
      org.hpf.internal.format.Manifest manifest) {
    try {
      look("committed");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return super.afterCommit(manifest);
  }

  /** Looks again once the first byte of the file is written, while it is open. */
  private ArchiveOutput watched(String name, ArchiveOutput out) {
    return new ForwardingOutput(out) {
      private OutputStream stream;

      @Override
      public synchronized OutputStream stream() {
        if (stream == null) {
          stream = new FilterOutputStream(super.stream()) {
            private boolean written;

            @Override
            public void write(int b) throws IOException {
              first();
              out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              first();
              out.write(b, off, len);
            }

            private void first() throws IOException {
              if (!written) {
                written = true;
                look("writing " + name);
              }
            }
          };
        }
        return stream;
      }

      @Override
      public void close() throws IOException {
        super.close();
        look("closed " + name);
      }
    };
  }
}
