package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.AccessLossException;
import org.hpf.ArchiveExistsException;
import org.hpf.ArchiveLockedException;
import org.hpf.ArchiveVersionException;
import org.hpf.ConcurrentCommitException;
import org.hpf.CorruptArchiveException;
import org.hpf.DuplicateNameException;
import org.hpf.FileNotInArchiveException;
import org.hpf.HpfException;
import org.hpf.InvalidNameException;
import org.hpf.LimitExceededException;
import org.hpf.LockLostException;
import org.hpf.NameConflictException;
import org.hpf.NameExistsException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.UnsupportedStoreException;
import org.hpf.internal.access.AccessMessages;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * The one place where errors become a line on stderr and an {@link ExitCodes exit code}: every
 * error prints {@code hpf: <message>}, with the stack trace only under {@code --verbose}.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

  /**
   * Carries an {@link OutOfMemoryError} out of a subcommand to this handler: picocli hands only
   * {@link Exception}s to it and lets errors escape. No stack trace of its own, so making one
   * needs next to no memory.
   */
  static final class OutOfMemory extends Exception {
    private static final long serialVersionUID = 1L;

    OutOfMemory(Error error) {
      super(null, error, false, false);
    }
  }

  /** The exit code of an exception thrown by a subcommand. */
  static int exitCodeOf(Throwable error) {
    if (outOfMemory(error) != null) {
      return ExitCodes.ERROR;
    }
    Throwable e = unwrap(error);
    // Most specific first: several of these extend each other (all hpf errors are IOExceptions).
    if (e instanceof ParameterException || e instanceof InvalidNameException
        || e instanceof DuplicateNameException || e instanceof NameConflictException
        || e instanceof LimitExceededException) {
      return ExitCodes.USAGE;
    }
    if (e instanceof CorruptArchiveException || e instanceof UnsafeNameException) {
      return ExitCodes.CORRUPT;
    }
    if (e instanceof ArchiveVersionException) {
      return ExitCodes.VERSION;
    }
    if (e instanceof ArchiveExistsException || e instanceof FileAlreadyExistsException
        || e instanceof NameExistsException) {
      return ExitCodes.EXISTS;
    }
    if (e instanceof ArchiveLockedException) {
      return ExitCodes.LOCKED;
    }
    if (e instanceof LockLostException) {
      return ExitCodes.LOCK_LOST;
    }
    if (e instanceof AccessLossException) {
      return ExitCodes.ACCESS_LOSS;
    }
    if (e instanceof UnsupportedStoreException) {
      return ExitCodes.UNSUPPORTED_STORE;
    }
    if (e instanceof ConcurrentCommitException) {
      return ExitCodes.CONFLICT;
    }
    if (e instanceof FileNotFoundException || e instanceof FileNotInArchiveException
        || e instanceof NoCommittedGenerationException) {
      return ExitCodes.NOT_FOUND;
    }
    return ExitCodes.ERROR;
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine commandLine,
      ParseResult parseResult) {
    if (ex instanceof ParameterException pe) {
      return handleParseException(pe, parseResult.originalArgs().toArray(new String[0]));
    }
    Throwable e = unwrap(ex);
    PrintWriter err = commandLine.getErr();
    boolean verbose = commandLine.getCommand() instanceof HpfSubcommand sub && sub.verbose();
    OutOfMemoryError outOfMemory = outOfMemory(ex);
    if (outOfMemory != null) {
      // The command's finally blocks and writers' close() have run: what the command held is
      // garbage now, and a failed create or append has removed what it wrote.
      err.println("hpf: " + outOfMemoryMessage(outOfMemory, Runtime.getRuntime().maxMemory()));
      if (verbose) {
        e.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.ERROR;
    }
    err.println("hpf: " + message(e));
    if (verbose) {
      e.printStackTrace(err);
    } else if (exitCodeOf(e) == ExitCodes.ERROR && !(e instanceof java.io.IOException)) {
      // Not an I/O problem the user can act on: most likely a bug, so say how to see more.
      err.println("hpf: run with --verbose for the stack trace");
    }
    err.flush();
    return exitCodeOf(e);
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println("hpf: " + ex.getMessage());
    UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
    err.flush();
    return ExitCodes.USAGE;
  }

  /**
   * One line: the first line of the message; for errors other than hpf's own and "not found" or
   * "exists", prefixed by the exception's class, since their message alone can be cryptic.
   */
  static String message(Throwable e) {
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getName();
    }
    int newline = message.indexOf('\n');
    message = (newline < 0 ? message : message.substring(0, newline)).strip();
    if (e instanceof NameExistsException) {
      // The library names its option; the command line spells it as a flag.
      message = message.replace("use replace to", "use --replace to");
    }
    if (e instanceof AccessLossException) {
      message = message.replace(AccessMessages.ALLOW_HINT, "pass --allow-access-loss")
          .replace(AccessMessages.SPLIT_HINT, "hpf create --split-by-owner makes them in one run");
    }
    boolean selfExplaining = e instanceof HpfException || e instanceof FileNotFoundException
        || e instanceof FileAlreadyExistsException || e instanceof ParameterException
        || e instanceof KerberosLogin.NotAuthenticatedException
        || e instanceof ObjectStoreErrors.StoreAccessDeniedException
        || e instanceof java.nio.file.AccessDeniedException;
    return selfExplaining ? message : e.getClass().getSimpleName() + ": " + message;
  }

  /** The {@link OutOfMemoryError} among {@code e} and its causes, or null. */
  static OutOfMemoryError outOfMemory(Throwable e) {
    // Bounded: a cause chain may be circular.
    for (int depth = 0; e != null && depth < 100; depth++, e = e.getCause()) {
      if (e instanceof OutOfMemoryError error) {
        return error;
      }
    }
    return null;
  }

  /**
   * The one line for running out of memory: what ran out (the error's message, e.g. "Java heap
   * space", "Metaspace", "Cannot reserve ... bytes of direct buffer memory ...") and the JVM
   * option that raises that limit, with the heap's maximum of this JVM ({@code maxHeapBytes})
   * and a size to try: the next power of two at least twice that.
   */
  static String outOfMemoryMessage(OutOfMemoryError e, long maxHeapBytes) {
    String what = e.getMessage() == null || e.getMessage().isBlank() ? "Java heap"
        : firstLine(e.getMessage());
    String lower = what.toLowerCase(Locale.ROOT);
    String heap = Units.count(maxHeapBytes >> 20) + " MiB";
    String larger = largerSize(maxHeapBytes);
    String prefix = "out of memory (" + what + "): ";
    if (lower.contains("direct buffer memory")) {
      return prefix + "raise the limit of direct buffers with JAVA_OPTS=-XX:MaxDirectMemorySize="
          + larger + " (unless set, it is the maximum heap, " + heap + ")";
    }
    if (lower.contains("metaspace")) {
      return prefix + "raise -XX:MaxMetaspaceSize in JAVA_OPTS, or remove it (no limit by"
          + " default)";
    }
    if (lower.contains("compressed class space")) {
      return prefix + "raise -XX:CompressedClassSpaceSize in JAVA_OPTS (default 1g)";
    }
    if (lower.contains("native thread")) {
      return prefix + "the system refused another thread; use fewer --threads, or raise the"
          + " limit on processes (ulimit -u) or the memory available";
    }
    return prefix + "the Java heap may use at most " + heap + "; give it more with JAVA_OPTS=-Xmx"
        + larger;
  }

  /** The next power of two of MiB at least twice {@code bytes}, as a JVM size: 64m, 2g. */
  private static String largerSize(long bytes) {
    long mib = Math.max(1, Math.min(bytes, 1L << 50) >> 20);
    long larger = Long.highestOneBit(2 * mib - 1) << 1;
    return larger >= 1024 ? (larger >> 10) + "g" : larger + "m";
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }

  private static Throwable unwrap(Throwable e) {
    while ((e instanceof UncheckedIOException || e instanceof ExecutionException
        || e instanceof CompletionException || e instanceof OutOfMemory)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
