package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.hpf.BatchRead;
import org.hpf.FileNotInArchiveException;
import org.hpf.InvalidNameException;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.read.EntryStatus;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code hpf extract}: members to plain files under a directory. */
@Command(name = "extract", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Writes members as plain files under <dest-dir>, each at its name's relative"
        + " path (app/a.log becomes <dest-dir>/app/a.log), with its modification time: all"
        + " members, those named, or those under --prefix.",
        "Checked before anything is written: every named member exists (else exit code 3);"
            + " no file would land outside <dest-dir> (a name with '..', an empty component or"
            + " a leading '/', or a symbolic link on the way: exit code 4, such names cannot"
            + " come from hpf's writers); no file exists already, unless --force (exit code 6).",
        "Each file gets its member's mode, as tar -x does: the read, write and execute bits less"
            + " the umask, or with -p the mode exactly (setuid and setgid only where the owner"
            + " is restored too); with --same-owner its owner and group. Both are the default"
            + " for the superuser (root; on HDFS, HDFS's superuser). A file that cannot get its"
            + " owner keeps the extracting user's: one warning, not a failure.",
        "Every member is checked against its checksum; a file that fails is removed (exit code"
            + " 4)."},
    footer = HpfSubcommand.PATHS_FOOTER)
final class ExtractCommand extends HpfSubcommand {
  @Option(names = "--prefix", paramLabel = "<p>",
      description = "Only members whose names start with <p> (e.g. app/ or app/2026-01).")
  private String prefix;

  @Option(names = "--force", description = "Overwrite files that exist.")
  private boolean force;

  @Option(names = {"-p", "--preserve-permissions"}, negatable = true,
      description = "Give files their recorded modes exactly, setuid and setgid only where the"
          + " owner is restored too; --no-preserve-permissions: the read, write and execute bits"
          + " less the umask (default: -p for the superuser).")
  private Boolean preservePermissions;

  @Option(names = "--same-owner", negatable = true,
      description = "Give files their recorded owners and groups (default for the superuser:"
          + " root, or HDFS's superuser on HDFS); one that cannot is a warning, not a failure.")
  private Boolean sameOwner;

  @Option(names = "--threads", paramLabel = "N",
      description = "Members read and written at once (default: twice the cores, at least 4).")
  private Integer threads;

  @Parameters(index = "0", paramLabel = "<archive>", description = "The archive.")
  private String archive;

  @Parameters(index = "1", paramLabel = "<dest-dir>",
      description = "Where to write the files (created if missing).")
  private String destination;

  @Parameters(index = "2..*", arity = "0..*", paramLabel = "<name>",
      description = "Members to extract (default: all, or all under --prefix).")
  private List<String> names = new ArrayList<>();

  private FileSystem fs;
  private Path dest;
  private String destPath;
  /** The destination on the local file system, for symbolic-link checks; null elsewhere. */
  private java.nio.file.Path localDest;
  private final Set<java.nio.file.Path> checkedDirectories = new HashSet<>();

  @Override
  protected int run() throws Exception {
    if (!names.isEmpty() && prefix != null) {
      throw new ParameterException(spec.commandLine(), "give member names or --prefix, not both");
    }
    for (String name : names) {
      try {
        MemberNames.check(name);
      } catch (InvalidNameException e) {
        throw new ParameterException(spec.commandLine(), "refusing '" + name + "': member"
            + " names are relative paths without empty, '.' or '..' components");
      }
    }
    if (threads != null && threads < 1) {
      throw new ParameterException(spec.commandLine(), "--threads must be at least 1");
    }
    int workers = threads != null ? threads
        : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    try (HpfReader reader = openArchive(archive,
        ReaderOptions.defaults().withRecordCacheBytes(ParallelExtraction.RECORD_CACHE_BYTES))) {
      dest = resolve(destination);
      fs = fileSystem(dest);
      boolean superuser = (preservePermissions == null || sameOwner == null)
          && org.hpf.internal.access.Superuser.at(fs);
      OwnerFailures ownerFailures = (sameOwner != null ? sameOwner : superuser)
          ? new OwnerFailures() : null;
      ExtractDestination files = ExtractDestination.of(fs, force,
          preservePermissions != null ? preservePermissions : superuser, ownerFailures);
      FileStatus destStatus = status(dest);
      if (destStatus != null && !destStatus.isDirectory()) {
        throw new ParameterException(spec.commandLine(), "<dest-dir>: " + dest
            + " is a file, not a directory");
      }
      boolean destHasFiles = destStatus != null && fs.listStatus(dest).length > 0;
      destPath = dest.toUri().getPath().replaceAll("/+$", "");
      if (fs instanceof RawLocalFileSystem) {
        localDest = Paths.get(dest.toUri());
      }

      // Pass 1: what to extract, whether every name is safe and every target free.
      long count = 0;
      long bytes = 0;
      List<String> conflicts = new ArrayList<>();
      long conflictCount = 0;
      try (Stream<NameEntry> selected = select(reader)) {
        for (Iterator<NameEntry> it = selected.iterator(); it.hasNext(); ) {
          NameEntry entry = it.next();
          Path target = checkedTarget(entry.name(), destHasFiles);
          count++;
          bytes += entry.length();
          if (destHasFiles && !force && files.exists(target)) {
            if (conflicts.size() < 3) {
              conflicts.add(target.toString());
            }
            conflictCount++;
          }
        }
      }
      if (conflictCount > 0) {
        throw new FileAlreadyExistsException(conflictCount + " file(s) to extract exist already ("
            + String.join(", ", conflicts) + (conflictCount > conflicts.size() ? ", ..." : "")
            + "); use --force to overwrite them");
      }
      if (count == 0 && prefix != null) {
        throw new FileNotFoundException("no member of " + reader.location()
            + " starts with '" + prefix + "'");
      }

      // Pass 2: write them, read as batches (in part order), several at once.
      long start = System.nanoTime();
      try (Progress progress = progress("extract");
          Stream<NameEntry> selected = select(reader);
          ParallelExtraction extraction = new ParallelExtraction(reader,
              recordedAccess(reader, archive), this::target, files, progress,
              BatchRead.from(configuration()), workers)) {
        progress.started(count, bytes);
        progress.phase("extracting");
        for (Iterator<NameEntry> it = selected.iterator(); it.hasNext(); ) {
          NameEntry entry = it.next();
          extraction.add(entry);
        }
        extraction.finish();
      }
      files.finish();
      long millis = (System.nanoTime() - start) / 1_000_000;
      String ownerWarning = ownerFailures == null ? null : ownerFailures.warning();
      if (ownerWarning != null) {
        printWarnings(List.of(ownerWarning));
      }
      if (!quiet()) {
        out().printf(Locale.ROOT, "extracted %s file(s), %s, to %s in %s (%s, %s files/s)%n",
            Units.count(count), Units.bytes(bytes), dest, Units.millis(millis),
            Units.rate(bytes, millis), millis <= 0 ? "-" : Units.count(count * 1000 / millis));
      }
    }
    return ExitCodes.OK;
  }

  /** The members to extract, in name order (names given: in the order given, once each). */
  private Stream<NameEntry> select(HpfReader reader) throws IOException {
    if (names.isEmpty()) {
      return Names.withPrefix(reader.listEntries(), prefix);
    }
    List<NameEntry> entries = new ArrayList<>();
    for (String name : new LinkedHashSet<>(names)) {
      if (!reader.exists(name)) {
        throw new FileNotInArchiveException(reader.location(), name);
      }
      EntryStatus status = reader.stat(name);
      entries.add(NameEntry.present(name, status.length(), status.mtimeMillis()));
    }
    return entries.stream();
  }

  /**
   * Where a member goes; refuses names that would leave the destination. Checked for symbolic
   * links on the way only when the destination held files before: in a new or empty one, the
   * directories and files below it are the ones this command makes (and a file is created
   * without following a link where it is).
   */
  private Path checkedTarget(String name, boolean destHasFiles) throws IOException {
    Path target = target(name);
    if (localDest != null && destHasFiles) {
      checkNoSymbolicLinks(name, Paths.get(target.toUri()));
    }
    return target;
  }

  /** Where a member goes, by its name alone; safe to call from many threads. */
  private Path target(String name) throws IOException {
    try {
      MemberNames.check(name);
    } catch (InvalidNameException e) {
      throw new UnsafeNameException(name, dest.toString(), "a member name must be a relative path"
          + " without empty, '.' or '..' components");
    }
    // Built from the parts, not parsed: a name such as "a:b" must not read as a URI scheme.
    Path target = new Path(dest.toUri().getScheme(), dest.toUri().getAuthority(),
        destPath + "/" + name);
    if (!target.toUri().getPath().startsWith(destPath + "/")) {
      throw new UnsafeNameException(name, dest.toString(), "resolves to " + target);
    }
    return target;
  }

  /**
   * On the local file system: no directory between the destination and the file, nor the file
   * itself, may be a symbolic link (it could point anywhere).
   */
  private void checkNoSymbolicLinks(String name, java.nio.file.Path target)
      throws UnsafeNameException {
    java.nio.file.Path path = localDest;
    for (java.nio.file.Path component : localDest.relativize(target)) {
      path = path.resolve(component);
      if (checkedDirectories.contains(path)) {
        continue;
      }
      if (Files.isSymbolicLink(path)) {
        throw new UnsafeNameException(name, dest.toString(), path + " is a symbolic link");
      }
      if (!path.equals(target) && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        checkedDirectories.add(path);
      }
    }
  }

  private FileStatus status(Path path) throws IOException {
    try {
      return fs.getFileStatus(path);
    } catch (FileNotFoundException e) {
      return null;
    }
  }
}
