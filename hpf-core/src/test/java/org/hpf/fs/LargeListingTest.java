package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing with sizes, times and block locations of an archive of 100,000 members reads its
 * names segments and no index file: it still succeeds with every index file moved away, and
 * reads no more bytes than the names, the manifest and the directory hold.
 */
class LargeListingTest {
  private static final int DIRECTORIES = 100;
  private static final int PER_DIRECTORY = 1000;

  @TempDir java.nio.file.Path tmp;

  @Test
  void aLocatedListingOfManyMembersReadsNoIndex() throws IOException {
    Configuration conf = new Configuration();
    conf.setBoolean("fs.hpf.impl.disable.cache", true);
    byte[] content = "0123456789".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.nio.file.Path dir = tmp.resolve("many.hpf");
    Path archive = new Path(dir.toUri());
    try (ArchiveWriter writer = ArchiveWriter.create(conf, archive,
        WriterOptions.builder().settings(s -> s.threads(2)).layout(l -> l.withBucketCapacity(4096))
            .build())) {
      for (int d = 0; d < DIRECTORIES; d++) {
        for (int f = 0; f < PER_DIRECTORY; f++) {
          writer.add(String.format("d%03d/f%05d", d, f), content, 1_700_000_000_000L + f);
        }
      }
      writer.commit();
    }
    long opened = 0;
    long indexBytes = 0;
    java.nio.file.Path aside = Files.createDirectories(tmp.resolve("aside"));
    try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
      for (java.nio.file.Path file : files.filter(Files::isRegularFile).toList()) {
        String name = file.getFileName().toString();
        if (name.startsWith("index-")) {
          indexBytes += Files.size(file);
          Files.move(file, aside.resolve(name));
        } else if (!name.startsWith("part-")) {
          opened += Files.size(file); // names, manifest, directory
        }
      }
    }
    assertTrue(indexBytes > 4_000_000, indexBytes + " bytes of index files removed");

    java.util.function.LongSupplier bytesRead = () -> FileSystem.getAllStatistics().stream()
        .filter(st -> st.getScheme().equals("file"))
        .mapToLong(st -> st.getThreadStatistics().getBytesRead()).sum();
    try (FileSystem hpf = new Path("hpf://file-" + dir.toAbsolutePath()).getFileSystem(conf)) {
      Path root = new Path("hpf://file-" + dir.toAbsolutePath() + "/");
      long before = bytesRead.getAsLong();
      int count = 0;
      RemoteIterator<LocatedFileStatus> all = hpf.listFiles(root, true);
      while (all.hasNext()) {
        LocatedFileStatus status = all.next();
        assertEquals(10, status.getLen());
        BlockLocation[] blocks = status.getBlockLocations();
        assertEquals(1, blocks.length, status.getPath().toString());
        assertEquals(10, blocks[0].getLength());
        count++;
      }
      assertEquals(DIRECTORIES * PER_DIRECTORY, count);
      long read = bytesRead.getAsLong() - before;
      assertTrue(read <= opened + 4096, read + " bytes read, the names, manifest and directory "
          + "hold " + opened);

      // A directory's listing first asks whether the path is a member (one lookup), so it
      // gets the index back.
      try (Stream<java.nio.file.Path> files = Files.list(aside)) {
        for (java.nio.file.Path file : files.toList()) {
          Files.move(file, dir.resolve(file.getFileName()));
        }
      }
      int inDirectory = 0;
      RemoteIterator<LocatedFileStatus> children =
          hpf.listLocatedStatus(new Path(root, "d042"));
      while (children.hasNext()) {
        LocatedFileStatus status = children.next();
        assertEquals(1_700_000_000_000L + inDirectory, status.getModificationTime());
        assertEquals(1, status.getBlockLocations().length);
        inDirectory++;
      }
      assertEquals(PER_DIRECTORY, inDirectory);
    }
  }
}
