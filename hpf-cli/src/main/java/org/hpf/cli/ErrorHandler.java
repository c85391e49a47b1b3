package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.ArchiveExistsException;
import org.hpf.ArchiveLockedException;
import org.hpf.ArchiveVersionException;
import org.hpf.CorruptArchiveException;
import org.hpf.DuplicateNameException;
import org.hpf.HpfException;
import org.hpf.InvalidNameException;
import org.hpf.LimitExceededException;
import org.hpf.NameExistsException;
import org.hpf.NoCommittedGenerationException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one place where errors become a line on stderr and an {@link ExitCodes exit code}: every
 * error prints {@code hpf: <message>}, with the stack trace only under {@code --verbose}.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

  /** The exit code of an exception thrown by a subcommand. */
  static int exitCodeOf(Throwable error) {
    Throwable e = unwrap(error);
    // Most specific first: several of these extend each other (all hpf errors are IOExceptions).
    if (e instanceof ParameterException || e instanceof InvalidNameException
        || e instanceof DuplicateNameException || e instanceof LimitExceededException) {
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
    // FileNotInArchiveException extends FileNotFoundException.
    if (e instanceof FileNotFoundException || e instanceof NoCommittedGenerationException) {
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
    boolean selfExplaining = e instanceof HpfException || e instanceof FileNotFoundException
        || e instanceof FileAlreadyExistsException || e instanceof ParameterException;
    return selfExplaining ? message : e.getClass().getSimpleName() + ": " + message;
  }

  private static Throwable unwrap(Throwable e) {
    while ((e instanceof UncheckedIOException || e instanceof ExecutionException
        || e instanceof CompletionException) && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }
}
