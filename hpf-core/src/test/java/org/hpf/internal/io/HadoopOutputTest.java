package org.hpf.internal.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A file whose stream failed the way HDFS's does after a pipeline failure, throwing its one
 * stored exception again from every later call: closing it after a failed write reports the
 * write's failure, with the close's attached, instead of "Self-suppression not permitted".
 */
class HadoopOutputTest {
  @Test
  void aStreamThatThrowsTheSameFailureAgainIsClosedWithoutSelfSuppression() {
    IOException stored = new IOException("Failed to replace a bad datanode on the existing "
        + "pipeline due to no more good datanodes being available to try");
    OutputStream failed = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw stored;
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        throw stored;
      }

      @Override
      public void flush() throws IOException {
        throw stored;
      }

      @Override
      public void close() throws IOException {
        throw stored;
      }
    };
    HadoopStorage.HadoopOutput file =
        new HadoopStorage.HadoopOutput(new FSDataOutputStream(failed, null));
    IOException thrown = assertThrows(IOException.class, () -> {
      try (ArchiveOutput out = file) {
        out.stream().write(new byte[100], 0, 100);
      }
    });
    assertSame(stored, thrown);
    assertEquals(1, thrown.getSuppressed().length);
    assertSame(stored, thrown.getSuppressed()[0].getCause());
    // Every later call still fails, each with an exception of its own.
    IOException again = assertThrows(IOException.class, file::sync);
    assertSame(stored, again.getCause());
  }
}
