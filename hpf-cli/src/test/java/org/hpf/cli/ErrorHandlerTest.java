package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
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
import org.hpf.LockLostException;
import org.hpf.NameExistsException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.SourceException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
    assertEquals(ExitCodes.LOCK_LOST,
        ErrorHandler.exitCodeOf(new LockLostException("a", "now held by b")));
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

  /**
   * An OutOfMemoryError anywhere in the cause chain is exit code 1, whatever wraps it (here
   * exceptions that alone would be 3 and 4).
   */
  @Test
  void outOfMemoryInTheCauseChainIsExitCode1() {
    OutOfMemoryError heap = new OutOfMemoryError("Java heap space");
    FileNotFoundException notFound = new FileNotFoundException("x");
    notFound.initCause(heap);
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(notFound));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new UncheckedIOException(
        new CorruptArchiveException("f", "bad", heap))));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(new ErrorHandler.OutOfMemory(heap)));
    assertSame(heap, ErrorHandler.outOfMemory(new ExecutionException(new IOException("x", heap))));
    assertNull(ErrorHandler.outOfMemory(new IOException("x", new IllegalStateException())));
    // A circular cause chain ends the search.
    IOException a = new IOException("a");
    IOException b = new IOException("b", a);
    a.initCause(b);
    assertNull(ErrorHandler.outOfMemory(a));
    assertEquals(ExitCodes.ERROR, ErrorHandler.exitCodeOf(a));
  }

  /** What ran out, the option that raises it and a size to try: twice the maximum, rounded up. */
  @Test
  void outOfMemoryMessages() {
    assertEquals("out of memory (Java heap space): the Java heap may use at most 989 MiB; give it"
        + " more with JAVA_OPTS=-Xmx2g", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError("Java heap space"), 989L << 20));
    assertEquals("out of memory (Java heap space): the Java heap may use at most 1,024 MiB; give"
        + " it more with JAVA_OPTS=-Xmx2g", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError("Java heap space"), 1L << 30));
    assertEquals("out of memory (GC overhead limit exceeded): the Java heap may use at most 30"
        + " MiB; give it more with JAVA_OPTS=-Xmx64m", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError("GC overhead limit exceeded"), (30L << 20) + 12345));
    assertEquals("out of memory (Java heap): the Java heap may use at most 4,096 MiB; give it"
        + " more with JAVA_OPTS=-Xmx8g", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError(), 4L << 30));
    assertEquals("out of memory (Cannot reserve 1048576 bytes of direct buffer memory"
        + " (allocated: 1000, limit: 1048576)): raise the limit of direct buffers with"
        + " JAVA_OPTS=-XX:MaxDirectMemorySize=2g (unless set, it is the maximum heap, 1,024 MiB)",
        ErrorHandler.outOfMemoryMessage(new OutOfMemoryError("Cannot reserve 1048576 bytes of"
            + " direct buffer memory (allocated: 1000, limit: 1048576)"), 1L << 30));
    assertEquals("out of memory (Direct buffer memory): raise the limit of direct buffers with"
        + " JAVA_OPTS=-XX:MaxDirectMemorySize=128m (unless set, it is the maximum heap, 64 MiB)",
        ErrorHandler.outOfMemoryMessage(new OutOfMemoryError("Direct buffer memory"), 64L << 20));
    assertEquals("out of memory (Metaspace): raise -XX:MaxMetaspaceSize in JAVA_OPTS, or remove"
        + " it (no limit by default)",
        ErrorHandler.outOfMemoryMessage(new OutOfMemoryError("Metaspace"), 1L << 30));
    assertEquals("out of memory (Compressed class space): raise -XX:CompressedClassSpaceSize in"
        + " JAVA_OPTS (default 1g)", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError("Compressed class space"), 1L << 30));
    assertTrue(ErrorHandler.outOfMemoryMessage(new OutOfMemoryError("unable to create native"
        + " thread: possibly out of memory or process/resource limits reached"), 1L << 30)
        .endsWith("use fewer --threads, or raise the limit on processes (ulimit -u) or the"
            + " memory available"));
    // One line, whatever the error's message holds.
    assertEquals("out of memory (Java heap space): the Java heap may use at most 64 MiB; give it"
        + " more with JAVA_OPTS=-Xmx128m", ErrorHandler.outOfMemoryMessage(
            new OutOfMemoryError("Java heap space\n\tat some.Frame"), 64L << 20));
  }

  /**
   * The handler's output for an OutOfMemoryError wrapped as the cause of the exceptions a
   * command throws: one line with this JVM's maximum heap, exit code 1, no stack trace; the
   * stack trace with --verbose.
   */
  @Test
  void outOfMemoryWrappedAsACauseIsOneLine() {
    Exception wrapped = new ExecutionException(new UncheckedIOException(
        new IOException("merging failed", new OutOfMemoryError("Java heap space"))));
    String heap = Units.count(Runtime.getRuntime().maxMemory() >> 20) + " MiB";

    List<String> lines = handle(wrapped, "create", "src", "a.hpf");
    assertEquals(1, lines.size(), lines::toString);
    assertTrue(lines.get(0).matches("hpf: out of memory \\(Java heap space\\): the Java heap may"
        + " use at most " + heap + "; give it more with JAVA_OPTS=-Xmx\\d+[mg]"), lines::toString);

    List<String> verbose = handle(wrapped, "create", "--verbose", "src", "a.hpf");
    assertEquals(lines.get(0), verbose.get(0));
    assertTrue(verbose.contains("Caused by: java.lang.OutOfMemoryError: Java heap space"),
        verbose::toString);
  }

  /** stderr of ErrorHandler for {@code ex} thrown by the subcommand {@code args} names. */
  private static List<String> handle(Exception ex, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
    CommandLine hpf = HpfCommand.commandLine(System.out, stream);
    CommandLine.ParseResult parsed = hpf.parseArgs(args);
    CommandLine sub = parsed.subcommand().commandSpec().commandLine();
    assertEquals(ExitCodes.ERROR, new ErrorHandler().handleExecutionException(ex, sub, parsed));
    return err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
  }
}
