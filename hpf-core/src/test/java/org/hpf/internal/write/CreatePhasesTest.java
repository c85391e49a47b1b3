package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ProgressListener;
import org.hpf.SourceException;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A create's time itemized by phase, adding up to its wall time; and the one walk of the
 * sources: the merge reads what the survey found, not what a second walk would find.
 */
class CreatePhasesTest {
  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  private static org.apache.hadoop.fs.Path hadoop(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }

  /** Two roots of nested directories (two roots: the survey sorts names for duplicates). */
  private List<org.apache.hadoop.fs.Path> sources() throws IOException {
    for (String root : List.of("a", "b")) {
      Path dir = Files.createDirectories(tmp.resolve("src-" + root + "/app/2026-01-0" + root));
      for (int i = 0; i < 5; i++) {
        Files.writeString(dir.resolve(root + i + ".log"), "line " + i + "\n".repeat(i));
      }
    }
    return List.of(hadoop(tmp.resolve("src-a")), hadoop(tmp.resolve("src-b")));
  }

  @Test
  void everyPhaseIsTimedAndTheyAddUpToTheWallTime() throws IOException {
    CreateResult created = ArchiveCreator.create(conf, hadoop(tmp.resolve("a.hpf")), sources(),
        WriterOptions.defaults());

    PhaseTimes phases = created.phases();
    assertEquals(10, created.files());
    assertEquals(phases.wallNanos(), phases.sumNanos(), "the phases add up to the wall time");
    assertTrue(phases.wallNanos() > 0);
    // Every phase but the HDFS features (skipped off HDFS, still timed) and the rest did work.
    EnumSet<Phase> worked = EnumSet.complementOf(EnumSet.of(Phase.PINNING, Phase.OTHER));
    for (Phase phase : Phase.values()) {
      long nanos = phases.nanos(phase);
      assertTrue(nanos >= 0 && nanos <= phases.wallNanos(), phase + ": " + nanos);
      if (worked.contains(phase)) {
        assertTrue(nanos > 0, phase + " was not timed");
      }
    }
    assertEquals(created.totalMillis(), phases.wallNanos() / 1_000_000);
    assertEquals(Phase.values().length, phases.millisByKey().size());
  }

  @Test
  void theMergeArchivesTheSourcesTheSurveyFound() throws IOException {
    List<org.apache.hadoop.fs.Path> roots = sources();
    // Once the survey has counted the sources, a new file appears among them.
    Path late = tmp.resolve("src-a/app/2026-01-0a/late.log");
    WriterOptions options = WriterOptions.builder().settings(s -> s.progress(
        new ProgressListener() {
          @Override
          public void started(long files, long bytes) {
            write(late, "written after the survey");
          }
        })).build();

    CreateResult created = ArchiveCreator.create(conf, hadoop(tmp.resolve("a.hpf")), roots,
        options);

    assertEquals(10, created.files(), "only the surveyed sources");
    try (HpfReader reader = HpfReader.open(conf, hadoop(tmp.resolve("a.hpf")))) {
      assertNull(reader.record("app/2026-01-0a/late.log"));
    }
  }

  @Test
  void aSourceRemovedAfterTheSurveyFailsTheCreate() throws IOException {
    List<org.apache.hadoop.fs.Path> roots = sources();
    Path gone = tmp.resolve("src-b/app/2026-01-0b/b3.log");
    WriterOptions options = WriterOptions.builder().settings(s -> s.progress(
        new ProgressListener() {
          @Override
          public void started(long files, long bytes) {
            try {
              Files.delete(gone);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        })).build();
    org.apache.hadoop.fs.Path archive = hadoop(tmp.resolve("a.hpf"));

    SourceException failed = assertThrows(SourceException.class,
        () -> ArchiveCreator.create(conf, archive, roots, options));

    assertTrue(failed.getMessage().contains("disappeared before it was read")
        && failed.getMessage().contains("b3.log"), failed.getMessage());
    assertTrue(!Files.exists(tmp.resolve("a.hpf")), "a create that failed leaves nothing");
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
