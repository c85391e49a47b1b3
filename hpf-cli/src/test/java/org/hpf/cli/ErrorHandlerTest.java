package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ArchiveExistsException;
import org.hpf.ArchiveLockedException;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.DuplicateNameException;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.InvalidNameException;
import org.hpf.LimitExceededException;
import org.hpf.NameExistsException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.SourceException;
import org.junit.jupiter.api.Test;

/** The exception-to-exit-code table of {@link ErrorHandler}. */
class ErrorHandlerTest {
  @Test
  void exitCodes() {
    assertEquals(ExitCodes.NOT_FOUND,
        ErrorHandler.exitCodeOf(new FileNotInArchiveException("a.hpf", "x")));
    assertEquals(ExitCodes.NOT_FOUND, ErrorHandler.exitCodeOf(new FileNotFoundException("x")));
    assertEquals(ExitCodes.NOT_FOUND,
        ErrorHandler.exitCodeOf(new NoCommittedGenerationException("a.hpf", false)));
    assertEquals(ExitCodes.CORRUPT,
        ErrorHandler.exitCodeOf(new CorruptArchiveException("f", 0, "bad")));
    assertEquals(ExitCodes.VERSION,
        ErrorHandler.exitCodeOf(new ArchiveVersionException("f", 2, 1, 1)));
    assertEquals(ExitCodes.EXISTS, ErrorHandler.exitCodeOf(new ArchiveExistsException("a")));
    assertEquals(ExitCodes.EXISTS, ErrorHandler.exitCodeOf(new FileAlreadyExistsException("f")));
    assertEquals(ExitCodes.EXISTS, ErrorHandler.exitCodeOf(
        new NameExistsException("a.hpf", java.util.List.of("x"), 1)));
    assertEquals(ExitCodes.CORRUPT,
        ErrorHandler.exitCodeOf(new UnsafeNameException("../x", "/d", "escapes")));
    assertEquals(ExitCodes.LOCKED,
        ErrorHandler.exitCodeOf(new ArchiveLockedException("a", "someone")));
    assertEquals(ExitCodes.USAGE, ErrorHandler.exitCodeOf(new InvalidNameException("a//b", "x")));
    assertEquals(ExitCodes.USAGE,
        ErrorHandler.exitCodeOf(new DuplicateNameException("a", "s1", "s2")));
    assertEquals(ExitCodes.USAGE, ErrorHandler.exitCodeOf(new LimitExceededException("big")));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new SourceException("changed")));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new HashCollisionException("h")));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new IOException("disk")));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new IllegalStateException()));
    assertEquals(ExitCodes.CORRUPT, ErrorHandler.exitCodeOf(
        new UncheckedIOException(new CorruptArchiveException("f", 0, "bad"))));
  }

  @Test
  void oneLineMessages() {
    assertEquals("'x' is not in archive a.hpf",
        ErrorHandler.message(new FileNotInArchiveException("a.hpf", "x")));
    assertEquals("IOException: first line", ErrorHandler.message(new IOException("first line\n"
        + "\tat some.remote.Frame")));
    assertEquals("java.lang.NullPointerException",
        ErrorHandler.message(new NullPointerException()));
  }
}
