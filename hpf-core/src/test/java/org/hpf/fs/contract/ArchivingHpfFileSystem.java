package org.hpf.fs.contract;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.hpf.Compression;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.Source;
import org.hpf.internal.write.WriterOptions;

/**
 * TEST ONLY: {@link HpfFileSystem} with writes, so that Hadoop's contract tests (which create
 * the files they then read) can run against the real read path. Every write commits a new
 * generation of the archive through the hpf writer ({@link ArchiveWriter}): closing a created
 * file appends it (replacing a member of the same name), a delete deletes the members at or below
 * the path. Reads are {@link HpfFileSystem}'s own, unchanged; after each commit the next read
 * opens the new generation, as any reader would after the check interval.
 *
 * <p>hpf has no empty directories (directories are implied by member names), so {@code mkdirs}
 * only checks that no file is in the way and returns true: the directory appears once a file is
 * created below it. Contract tests that need an empty directory are declared unsupported.
 */
public class ArchivingHpfFileSystem extends HpfFileSystem {
  /** Whether files are stored LZ4-compressed (when that saves space) or all raw. */
  public static final String COMPRESSION_KEY = "test.hpf.contract.compression";

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    Path archive = archiveOf(f);
    String member = memberOf(f);
    if (member.isEmpty()) {
      throw new FileAlreadyExistsException(f + " is the archive root, a directory");
    }
    checkParents(f);
    FileStatus existing = statusOrNull(f);
    if (existing != null && existing.isDirectory()) {
      throw new FileAlreadyExistsException(f + " is a directory");
    }
    if (existing != null && !overwrite) {
      throw new FileAlreadyExistsException(f + " exists");
    }
    OutputStream buffer = new ByteArrayOutputStream() {
      private boolean closed;

      @Override
      public void close() throws IOException {
        if (!closed) {
          closed = true;
          commitFile(archive, member, toByteArray());
        }
      }
    };
    return new FSDataOutputStream(buffer, statistics);
  }

  /** As {@link #create}: a parent directory is implied by the file, so it need not exist. */
  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
      EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
      Progressable progress) throws IOException {
    return create(f, permission, flags.contains(CreateFlag.OVERWRITE), bufferSize, replication,
        blockSize, progress);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    checkParents(f);
    FileStatus existing = statusOrNull(f);
    if (existing != null && existing.isFile()) {
      throw new FileAlreadyExistsException(f + " is a file");
    }
    return true;
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    FileStatus existing = statusOrNull(f);
    if (existing == null) {
      return false;
    }
    Path archive = archiveOf(f);
    String member = memberOf(f);
    List<String> names = new ArrayList<>();
    if (existing.isFile()) {
      names.add(member);
    } else {
      String prefix = member.isEmpty() ? "" : member + "/";
      try (HpfReader reader = HpfReader.open(getConf(), archive);
          Stream<NameEntry> below = reader.listEntries(prefix)) {
        below.forEach(e -> names.add(e.name()));
      }
      if (!names.isEmpty() && !recursive) {
        throw new PathIsNotEmptyDirectoryException(f.toString());
      }
      if (names.isEmpty()) {
        return member.isEmpty(); // the archive root stays, as every root does
      }
    }
    try (ArchiveWriter writer = ArchiveWriter.open(getConf(), archive, writerOptions())) {
      writer.delete(names);
    }
    refresh(archive);
    return true;
  }

  private void commitFile(Path archive, String member, byte[] bytes) throws IOException {
    Configuration conf = getConf();
    RawLocalFileSystem local = new RawLocalFileSystem();
    local.initialize(java.net.URI.create("file:///"), conf);
    java.io.File staged = java.io.File.createTempFile("hpf-contract-", ".bin");
    try {
      java.nio.file.Files.write(staged.toPath(), bytes);
      Path source = new Path(staged.toURI());
      Source file = new Source(member, local, source, bytes.length, System.currentTimeMillis());
      try (ArchiveWriter writer = ArchiveWriter.open(conf, archive, writerOptions())) {
        writer.appendSources(List.of(file), true);
      }
    } finally {
      java.nio.file.Files.deleteIfExists(staged.toPath());
      local.close();
    }
    refresh(archive);
  }

  private WriterOptions writerOptions() {
    return WriterOptions.builder().settings(s -> s.threads(1).compression(getConf()
        .getEnum(COMPRESSION_KEY, Compression.NONE))).layout(l -> l.withPartSize(1 << 20)).build();
  }

  /** Refuses a path below a file (create and mkdirs must fail there). */
  private void checkParents(Path f) throws IOException {
    for (Path p = f.getParent(); p != null && !memberOf(p).isEmpty(); p = p.getParent()) {
      FileStatus status = statusOrNull(p);
      if (status != null && status.isFile()) {
        throw new ParentNotDirectoryException(p + " is a file");
      }
    }
  }

  private FileStatus statusOrNull(Path f) throws IOException {
    try {
      return getFileStatus(f);
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /** The scheme's registration for a test configuration. */
  public static void register(Configuration conf) {
    conf.setClass("fs.hpf.impl", ArchivingHpfFileSystem.class, FileSystem.class);
    conf.setBoolean("fs.hpf.impl.disable.cache", true);
  }
}
