package org.hpf.crash;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.WriterOptions;

/**
 * A writer process for {@link DeadWriterLockTest}: opens the archive for an append, adds members
 * with small journal batches, says so in a file once some are journaled, and goes on until it is
 * killed.
 *
 * <p>Arguments: archive URI, the file to create when killing it is interesting.
 */
public final class SlowAppender {
  private SlowAppender() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1))
        .journalBatch(4, 1 << 20).build();
    try (ArchiveWriter writer = ArchiveWriter.open(conf,
        new org.apache.hadoop.fs.Path(args[0]), options)) {
      for (int i = 0; ; i++) {
        writer.add("slow/m-" + i, ("member " + i).getBytes(), 0);
        if (i == 20) {
          Files.writeString(Path.of(args[1]), "journaled");
        }
        Thread.sleep(20);
      }
    }
  }
}
