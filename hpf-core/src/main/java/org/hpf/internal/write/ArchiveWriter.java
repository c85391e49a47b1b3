package org.hpf.internal.write;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.ConcurrentCommitException;
import org.hpf.ExistingNames;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.MemberAccess;
import org.hpf.NameExistsException;
import org.hpf.SourceException;
import org.hpf.internal.access.AccessMessages;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.access.FileAccess;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.JournalHeader;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.MemberNames;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.hdfs.HdfsReport;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.spill.Scratch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes an archive: creates a new one or changes an existing one (append, delete, compact).
 * Opening takes the archive's exclusive lock and recovers whatever a writer that died left
 * behind. Then:
 *
 * <ul>
 *   <li>members are added one at a time, as a name and a stream ({@link #add}) or a directory
 *       tree ({@link #addTree}); each is merged into a part file at once and journaled, and
 *       concurrent callers each write their own part; the heap does not grow with their number
 *       (names and records spill to {@link WriterOptions#scratchDirectory()});
 *   <li>{@link #commit} publishes all of them as one new generation, atomically;
 *       {@link #abort} (or closing without a commit) drops them and leaves the archive as it
 *       was (a create leaves nothing).
 * </ul>
 *
 * <p>{@link #delete} and {@link #compact} commit at once. Readers opened before a commit keep
 * reading their generation (see {@link WriterOptions#retainGenerations()}).
 *
 * <p>{@link #add} may be called from several threads at once; everything else from one.
 * Close the writer to release the lock.
 */
public final class ArchiveWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);

  private final Configuration conf;
  private final ArchiveStorage storage;
  private final WriterOptions options;
  private final WriterLock lock;
  private final WriterPool pool;
  private final Recovery.Report recovery;
  /** Takes the time of this writer's phases, on the thread that drives it. */
  private final PhaseClock clock;
  /** Set for a writer that creates the archive, until its first commit. */
  private final NewArchive creating;
  private Manifest manifest;
  /** The reader of {@link #manifest}; null until needed after a commit (see {@link #reader()}). */
  private HpfReader reader;
  private Addition addition;
  private long additionStart;
  private boolean closed;
  /** The last commit's figures, for {@link #createResult}. */
  private Addition.Outcome lastOutcome;
  private ChangeResult lastResult;
  /** True once a commit of this writer (or its recovery) passed its commit point, or may have. */
  private boolean committedAny;
  /** What failed while closing a writer that had committed (see {@link #closeWarnings}). */
  private final List<String> closeWarnings = new ArrayList<>();
  /** Members of the last tree added that were skipped as identical. */
  private long skipped;
  /** The links the last tree added met (null before one was). */
  private SourceLinks links;
  /** Who could read the sources of the change being built (null before its first tree). */
  private AccessPlan access;
  /** The access the archive gets from the change being built, once decided. */
  private AccessPlan.Decision accessDecision;
  /** The accesses members added through the API brought into the change being built. */
  private final Set<MemberAccess> settledAccesses =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** See {@link #defaultAccess()}. */
  private volatile MemberAccess defaultAccess;

  /** The layout of an archive being created: fixed before its first member. */
  /**
   * A create's layout; {@code given} is the access the file system gave the new directory (the
   * most its first generation may get), null where it keeps none.
   */
  private record NewArchive(ArchiveId id, int capacity, long blockSize, long partSize,
      RootAccess given, OwnFiles own) {}

  private ArchiveWriter(Configuration conf, ArchiveStorage storage, WriterOptions options,
      WriterLock lock, WriterPool pool, Recovery.Report recovery, NewArchive creating,
      PhaseClock clock) throws IOException {
    this.conf = conf;
    this.clock = clock;
    this.storage = storage;
    this.options = options;
    this.lock = lock;
    this.pool = pool;
    this.recovery = recovery;
    this.creating = creating;
    // A generation recovery rolled forward is committed like one of this writer's.
    this.committedAny = recovery != null && recovery.rolledForward();
    if (creating == null) {
      refresh();
    }
  }

  /**
   * Starts a new archive at {@code archive}, which must not exist or be an empty directory.
   * Nothing is visible until {@link #commit}; an abort removes the directory again.
   */
  public static ArchiveWriter create(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return create(conf, archive, options, PhaseClock.start());
  }

  /** As {@link #create(Configuration, Path, WriterOptions)}, its phases timed by {@code clock}. */
  static ArchiveWriter create(Configuration conf, Path archive, WriterOptions options,
      PhaseClock clock) throws IOException {
    return create(conf, storageFor(conf, archive, options), options, clock);
  }

  /** As {@link #create(Configuration, Path, WriterOptions)}, in {@code storage} (tests). */
  public static ArchiveWriter create(Configuration conf, ArchiveStorage target,
      WriterOptions options) throws IOException {
    return create(conf, target, options, PhaseClock.start());
  }

  /** As {@link #create(Configuration, ArchiveStorage, WriterOptions)}, timed by {@code clock}. */
  static ArchiveWriter create(Configuration conf, ArchiveStorage target,
      WriterOptions options, PhaseClock clock) throws IOException {
    ArchiveStorage storage = ArchiveFileDeleter.around(target);
    if (storage.rootExistsNonEmpty()) {
      throw UncommittedCreate.existsError(storage);
    }
    long blockSize = options.layout().blockSize() > 0 ? options.layout()
        .blockSize() : storage.defaultBlockSize();
    int capacity = ArchiveCreator.capacity(options, blockSize);
    RootAccess given;
    try {
      // Only its owner reads the archive until its first commit sets who else may.
      given = storage.createPrivateRoot(Manifest.DIR);
    } catch (FileNotFoundException e) {
      throw removedWhileCreating(storage, e);
    }
    WriterLock lock = WriterLock.acquire(storage, "create", options.settings().threads());
    WriterPool pool = WriterPool.start(options.settings().threads());
    try {
      requireNothingButThisCreate(storage);
      ArchiveId id = options.archiveId() != null ? options.archiveId() : ArchiveId.random();
      ArchiveStorage owned = owning(storage, id);
      return new ArchiveWriter(conf, lock.fence(owned), options, lock, pool, null,
          new NewArchive(id, capacity, blockSize, options.layout().partSize(), given,
              owned instanceof OwnFiles own ? own : null), clock);
    } catch (IOException | RuntimeException | Error e) {
      pool.close();
      lock.release();
      throw e;
    }
  }

  /**
   * Refuses a create whose path another writer took between its first look and its lock: a
   * create that committed there, or recovery that removed the directory.
   */
  private static void requireNothingButThisCreate(ArchiveStorage storage) throws IOException {
    List<String> manifests;
    try {
      manifests = storage.list(Manifest.DIR);
    } catch (FileNotFoundException e) {
      throw removedWhileCreating(storage, e);
    }
    if (!manifests.isEmpty() || storage.list("").stream().anyMatch(name ->
        !name.equals(Manifest.DIR) && !name.startsWith(ArchiveLayout.LOCK))) {
      throw UncommittedCreate.existsError(storage);
    }
  }

  private static ConcurrentCommitException removedWhileCreating(ArchiveStorage storage,
      IOException cause) {
    return new ConcurrentCommitException(storage.location(), "the directory was removed "
        + "while the archive was being created", cause);
  }

  /** Opens the archive for changes: lock, then recover if a writer died. */
  public static ArchiveWriter open(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return open(conf, storageFor(conf, archive, options), options);
  }

  private static ArchiveStorage storageFor(Configuration conf, Path archive,
      WriterOptions options) throws IOException {
    return HdfsIntegration.storageToChange(conf, archive, (short) options.layout().replication(),
        options.layout().partSize(), options.settings());
  }

  /**
   * Opens the archive in {@code storage} for changes (the seam tests use to inject faults);
   * {@code conf} resolves source paths.
   */
  public static ArchiveWriter open(Configuration conf, ArchiveStorage storage,
      WriterOptions options) throws IOException {
    Recovered opened = openRecovered(conf, storage, options, false);
    if (opened.writer() == null) {
      throw UncommittedCreate.removedError(storage.location());
    }
    return opened.writer();
  }

  /** A writer on the archive, or none where recovery removed a create that never committed. */
  private record Recovered(ArchiveWriter writer, Recovery.Report report) {}

  /** As {@link #open}; {@code recovering} where recovery is all the caller asked for. */
  private static Recovered openRecovered(Configuration conf, ArchiveStorage target,
      WriterOptions options, boolean recovering) throws IOException {
    ArchiveStorage storage = ArchiveFileDeleter.around(target);
    UncommittedCreate.requireManifestsDirectory(storage);
    WriterLock lock = WriterLock.take(storage, options.operation(), options.settings());
    WriterPool pool = WriterPool.start(options.settings().threads());
    Recovery.Report report;
    try {
      ArchiveStorage fenced = lock.fence(owning(storage));
      report = Recovery.run(fenced, options, pool, lock.fencedWriters(), recovering)
          .withLockTakenOver(lock.takenOver());
      Recovery.log(storage, report);
      if (!report.removedCreate()) {
        return new Recovered(new ArchiveWriter(conf, fenced, options, lock, pool, report, null,
            PhaseClock.start()), report);
      }
    } catch (IOException | RuntimeException | Error e) {
      pool.close();
      lock.release();
      throw e;
    }
    pool.close();
    lock.release();
    storage.deleteEmptyDirectories(Manifest.DIR); // the directory markers left
    return new Recovered(null, report);
  }

  /** {@code storage}, knowing this writer's own files where names alone do not tell. */
  private static ArchiveStorage owning(ArchiveStorage storage) throws IOException {
    return owning(storage, null);
  }

  /** As {@link #owning(ArchiveStorage)}, for a create of the archive {@code creating}. */
  private static ArchiveStorage owning(ArchiveStorage storage, ArchiveId creating)
      throws IOException {
    return storage.profile() == StorageProfile.CONDITIONAL_CREATE
        ? new OwnFiles(storage, creating) : storage;
  }

  /** Recovers an archive whose writer died, and releases it. */
  public static Recovery.Report recover(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    Recovered opened = openRecovered(conf, storageFor(conf, archive, options), options,
        true);
    ArchiveWriter writer = opened.writer();
    if (writer == null) {
      return opened.report();
    }
    writer.close();
    return writer.recovery.withWarnings(writer.closeWarnings());
  }

  /** What recovery did when this writer opened the archive (null for a create). */
  public Recovery.Report recovery() {
    return recovery;
  }

  /** The generation this writer last committed (or found); null before a create commits. */
  public Manifest manifest() {
    return manifest;
  }

  // ---- adding members ----

  /**
   * Adds a member: {@code length} bytes read from {@code in} (not closed here). Fails with
   * {@link NameExistsException} if the archive has the name. A member that fails before its
   * bytes were read in full (up to 16 MiB members are read whole first) changes nothing; a
   * larger one that fails midway leaves the writer able only to {@link #abort}.
   */
  public void add(String name, InputStream in, long length, long mtimeMillis)
      throws IOException {
    add(name, in, length, mtimeMillis, null);
  }

  /**
   * As {@link #add(String, InputStream, long, long)}, with its own owner, group and mode (null:
   * the writer's default).
   */
  public void add(String name, InputStream in, long length, long mtimeMillis,
      MemberAccess access) throws IOException {
    settleAccessOf(name, access);
    add(member(name, in, length, mtimeMillis, access), false);
  }

  /** As {@link #replace(String, InputStream, long, long)}, with its own access (or null). */
  public void replace(String name, InputStream in, long length, long mtimeMillis,
      MemberAccess access) throws IOException {
    settleAccessOf(name, access);
    add(member(name, in, length, mtimeMillis, access), true);
  }

  /**
   * A member given its own access is read by no more than that access allows: the archive is
   * narrowed as for a source of that owner, group and mode, before its bytes are written. Once
   * per distinct access in a change.
   */
  private synchronized void settleAccessOf(String name, MemberAccess given) throws IOException {
    checkOpen();
    if (given == null || !settledAccesses.add(given)) {
      return;
    }
    AccessPlan plan = new AccessPlan();
    plan.add("'" + name + "'", given.owner(), given.group(), FileAccess.fileReaders(given));
    settleAccess(plan);
  }

  private static EntryEncoder.Member member(String name, InputStream in, long length,
      long mtimeMillis, MemberAccess access) {
    return new EntryEncoder.Member(name, length, mtimeMillis, in, false, "'" + name + "'",
        access);
  }

  /**
   * What members added without an access of their own record: the options' default, else the
   * writing user's ({@link MemberAccess#defaultFor}), found once.
   */
  private MemberAccess defaultAccess() throws IOException {
    MemberAccess known = defaultAccess;
    if (known == null) {
      known = options.settings().defaultAccess().orElse(null);
      if (known == null) {
        known = MemberAccess.defaultFor(conf);
      }
      defaultAccess = known;
    }
    return known;
  }

  /** Adds a member whose bytes are in memory. */
  public void add(String name, byte[] bytes, long mtimeMillis) throws IOException {
    add(name, new ByteArrayInputStream(bytes), bytes.length, mtimeMillis);
  }

  /** As {@link #add}, but a member of the same name is replaced instead of refused. */
  public void replace(String name, InputStream in, long length, long mtimeMillis)
      throws IOException {
    replace(name, in, length, mtimeMillis, null);
  }

  /** Adds one source file (which must not change while it is read). */
  void add(Source source, boolean replace) throws IOException {
    try (InputStream in = EntryEncoder.open(source)) {
      add(EntryEncoder.member(source, in), replace);
    }
  }

  private void add(EntryEncoder.Member member, boolean replace) throws IOException {
    MemberNames.check(member.name());
    if (member.length() < 0) {
      throw new IllegalArgumentException("negative length " + member.length() + " of '"
          + member.name() + "'");
    }
    IndexRecord existing = existing(member.name());
    if (existing != null && !replace) {
      throw new NameExistsException(storage.location(), List.of(member.name()), 1);
    }
    addition().add(member, existing);
  }

  /** The member's current record, or null; fails on a different name with the same hash. */
  private IndexRecord existing(String name) throws IOException {
    if (manifest == null) {
      return null;
    }
    return existing(reader(), name);
  }

  /**
   * True when the source's name is a member the policy refuses; counts the identical ones
   * skipped.
   */
  private boolean clashes(Source source, ExistingNames policy) throws IOException {
    IndexRecord member = existing(source.name());
    if (member == null) {
      return false;
    }
    if (policy == ExistingNames.SKIP_IDENTICAL && member.originalLength() == source.length()
        && SourceRemoval.crc32cOf(source.fs(), source.path()) == reader().contentChecksum(member)) {
      skipped++;
      return false;
    }
    return true;
  }

  /** The member's record in {@code reader}'s generation, or null; fails on a hash collision. */
  static IndexRecord existing(HpfReader reader, String name) throws IOException {
    IndexRecord existing = reader.recordOfHash(name);
    if (existing != null) {
      String member = reader.entryName(existing);
      if (!member.equals(name)) {
        // Replacing it would silently drop the other member.
        throw new HashCollisionException("'" + name + "' has the same 128-bit hash as the "
            + "member '" + member + "'");
      }
    }
    return existing;
  }

  synchronized Addition addition() throws IOException {
    checkOpen();
    if (addition == null) {
      additionStart = System.nanoTime();
      if (creating != null && manifest == null) {
        int algorithm = options.newArchiveAlgorithm();
        GenerationCommit commit = new GenerationCommit(storage, creating.id, null, algorithm,
            creating.capacity, creating.blockSize, creating.partSize, options);
        addition = new Addition(storage, creating.id, commit, options, creating.blockSize, 0,
            new JournalHeader(JournalHeader.CREATE, false, algorithm, 0, creating.capacity,
                creating.blockSize, creating.partSize), this::defaultAccess);
      } else {
        GenerationCommit commit = newCommit();
        addition = new Addition(storage, manifest.archiveId(), commit, options,
            manifest.blockSize(), nextPartId(storage, manifest),
            new JournalHeader(JournalHeader.APPEND, true, manifest.hashAlgorithm(),
                manifest.generation(),
                manifest.bucketCapacity(), manifest.blockSize(), manifest.partSize()),
            this::defaultAccess);
      }
      options.settings().progress().phase("merging");
    }
    return addition;
  }

  /**
   * Deletes a member as part of the change being built, committed in one generation with the
   * members added beside it (journaled, so that recovery redoes it with them). A name the archive
   * lacks fails at once; deleting and adding one name in one change fails the commit
   * ({@link org.hpf.DuplicateNameException}).
   */
  public void stageDelete(String name) throws IOException {
    checkOpen();
    // As delete: one record read (the entry is read only where the hash could collide).
    IndexRecord existing = manifest == null ? null : reader().record(name);
    if (existing == null) {
      throw new FileNotInArchiveException(storage.location(), name);
    }
    addition().delete(name, existing);
  }

  /**
   * Adds every file below {@code sourceRoots} (see {@link SourceWalker} for the names), merged
   * by the writer's threads. Before a byte is written, one walk counts the files (for
   * progress), finds names that two roots both give ({@link org.hpf.DuplicateNameException})
   * and, unless {@code replace}, names the archive already has ({@link NameExistsException}).
   * The merge then reads the sources that walk found, spooled in walk order to the scratch
   * directory (the trees are not walked again): the heap holds no list of them.
   */
  public void addTree(List<Path> sourceRoots, boolean replace) throws IOException {
    addTree(sourceRoots, replace ? ExistingNames.REPLACE : ExistingNames.FAIL);
  }

  /**
   * As {@link #addTree(List, boolean)}, with names the archive has treated as {@code existing}
   * says.
   */
  public void addTree(List<Path> sourceRoots, ExistingNames existing) throws IOException {
    checkOpen();
    try (SourceSpool spool = new SourceSpool(Scratch.in(options.settings().scratchDirectory()))) {
      SourceSurvey.Totals survey = survey(sourceRoots, existing, spool);
      options.settings().progress().started(survey.files() - skipped, survey.bytes());
      try (PhaseClock.Section s = clock.in(Phase.MERGE)) {
        addition();
        java.util.Iterator<Source> sources = spool.sources();
        if (existing == ExistingNames.SKIP_IDENTICAL) {
          // The survey found every member of these names identical to its source.
          sources = com.google.common.collect.Iterators.filter(sources, source -> {
            try {
              return existing(source.name()) == null;
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
        }
        addSources(sources, existing == ExistingNames.REPLACE);
      }
    }
  }

  /** Adds sources already collected, merged by the writer's threads. */
  void addSources(java.util.Iterator<Source> sources, boolean replace) throws IOException {
    try (MergeQueue queue = new MergeQueue(pool, options.settings().threads())) {
      while (!queue.failed() && sources.hasNext()) {
        Source source = sources.next();
        queue.submit(() -> add(source, replace));
      }
      queue.finish();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Files and bytes of a tree, checked for duplicate and (unless replacing) existing names; the
   * sources go to {@code spool}, for the merge.
   */
  private SourceSurvey.Totals survey(List<Path> roots, ExistingNames policy, SourceSpool spool)
      throws IOException {
    skipped = 0;
    AccessPlan plan = new AccessPlan();
    SourceSurvey.Totals totals = SourceSurvey.run(conf, roots, options, storage.location(),
        policy == ExistingNames.REPLACE ? null : source -> clashes(source, policy), spool::add,
        plan, clock);
    links = totals.links();
    try (PhaseClock.Section s = clock.in(Phase.SURVEY)) {
      settleAccess(plan);
    }
    return totals;
  }

  /**
   * Decides who may read the archive once the surveyed sources join it, before a byte of them
   * is written: refuses a change that takes users' access from them (unless allowed), and
   * narrows an existing archive's directory at once. A new archive gets its access at commit.
   */
  private void settleAccess(AccessPlan plan) throws IOException {
    boolean first = creating != null && manifest == null;
    RootAccess current = first ? creating.given() : storage.rootAccess();
    if (current == null) {
      return;
    }
    AccessPlan merged = access == null ? plan : access.merge(plan);
    AccessPlan.Decision decision = AccessSettlement.settle(storage, merged, current,
        first ? null : manifest, options);
    access = merged;
    accessDecision = decision;
  }

  /** True when members were added since the last commit. */
  public synchronized boolean hasPendingChanges() {
    return addition != null;
  }

  /** The archive's location, for messages. */
  public String location() {
    return storage.location();
  }

  /** Members added since the last commit: what an abort drops. */
  public synchronized long pendingAdditions() {
    return addition == null ? 0 : addition.files();
  }

  /** Deletions staged since the last commit. */
  public synchronized long pendingDeletions() {
    return addition == null ? 0 : addition.deletions();
  }

  /** Whether this writer creates the archive and has not committed it yet. */
  public boolean createsUncommitted() {
    return creating != null && manifest == null && !committedAny;
  }

  /**
   * Publishes the members added since the last commit as one new generation (for a create,
   * the archive's first, even with no member). Any failure before the commit point aborts them:
   * the archive stays as it was; a failure after it is a warning in the result. If whether the
   * generation was committed cannot be told, nothing is removed and the call throws.
   */
  public ChangeResult commit() throws IOException {
    checkOpen();
    if (creating != null && manifest == null) {
      addition();
    }
    if (addition == null) {
      throw new IllegalStateException("nothing to commit: no member was added");
    }
    Addition.Outcome outcome;
    try {
      if (creating != null && manifest == null && creating.given() != null) {
        // The first generation opens the archive to whoever may read all its sources.
        try (PhaseClock.Section s = clock.in(Phase.COMMIT)) {
          storage.setRootAccess(accessDecision != null ? accessDecision.access()
              : creating.given());
        }
      }
      outcome = addition.commit(pool, clock);
    } catch (UnsettledCommitException e) {
      addition = null;
      unsettled(e);
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      abortQuietly(e);
      throw e;
    }
    addition = null;
    long bytes = outcome.parts().stream().mapToLong(PartInfo::length).sum();
    lastOutcome = outcome;
    List<String> notes = new ArrayList<>();
    if (accessDecision != null) {
      notes.addAll(AccessMessages.narrowed(storage.location(), accessDecision));
    }
    notes.addAll(outcome.warnings());
    access = null;
    accessDecision = null;
    settledAccesses.clear();
    return finish(outcome.commit(), notes, outcome.files() - outcome.replaced(),
        outcome.replaced(), outcome.deleted(), bytes, outcome.parts().size(), 0, additionStart);
  }

  /** The create's figures, after the commit of a writer from {@link #create}. */
  CreateResult createResult(PhaseTimes phases) {
    Manifest created = manifest;
    DirectoryFile directory = lastOutcome.commit().directory();
    long indexBytes = 0;
    long functionBytes = 0;
    for (DirectoryFile.BucketRef bucket : directory.buckets()) {
      indexBytes += bucket.indexFileLength();
      functionBytes += bucket.functionLength();
    }
    return new CreateResult(storage.location(), created.generation(), created.fileCount(),
        created.originalBytes(), created.storedBytes(), created.parts().size(),
        directory.buckets().size(), directory.globalDepth(), indexBytes, functionBytes,
        phases, lastResult.hdfs(), lastResult.links(), lastResult.warnings());
  }

  /** Drops the members added since the last commit; the archive stays as it was. */
  public void abort() throws IOException {
    checkOpen();
    access = null;
    accessDecision = null;
    settledAccesses.clear();
    if (addition != null) {
      Addition dropped = addition;
      addition = null;
      dropped.abort();
      if (manifest != null) {
        GarbageCollector.collect(storage, options.settings().retainGenerations(), Set.of());
      }
    }
  }

  private void abortQuietly(Throwable cause) {
    try {
      abort();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  // ---- one-shot changes ----

  /**
   * Adds the files below {@code sourceRoots} and commits. Names the archive already has fail
   * the append ({@link NameExistsException}) unless {@code replace}, in which case the new bytes
   * win. On any failure the archive stays as it was.
   */
  public ChangeResult append(List<Path> sourceRoots, boolean replace) throws IOException {
    return append(sourceRoots, replace ? ExistingNames.REPLACE : ExistingNames.FAIL);
  }

  /**
   * Adds the files below {@code sourceRoots} and commits, with names the archive has treated as
   * {@code existing} says. On any failure the archive stays as it was.
   */
  public ChangeResult append(List<Path> sourceRoots, ExistingNames existing) throws IOException {
    checkNoAddition();
    try {
      addTree(sourceRoots, existing);
    } catch (IOException | RuntimeException | Error e) {
      abortQuietly(e);
      throw e;
    }
    return commit();
  }

  /** As {@link #append}, for sources already collected (unique names). */
  public ChangeResult appendSources(List<Source> sources, boolean replace) throws IOException {
    checkNoAddition();
    if (!replace) {
      SourceSurvey.Clashes clashes = new SourceSurvey.Clashes();
      for (Source source : sources) {
        if (existing(source.name()) != null) {
          clashes.add(source.name());
        }
      }
      clashes.throwIfAny(storage.location());
    }
    try {
      options.settings().progress().started(sources.size(),
          sources.stream().mapToLong(Source::length).sum());
      addition();
      addSources(sources.iterator(), replace);
    } catch (IOException | RuntimeException | Error e) {
      abortQuietly(e);
      throw e;
    }
    return commit();
  }

  /** Removes members; all or nothing: a name the archive lacks fails the whole delete. */
  public ChangeResult delete(Collection<String> names) throws IOException {
    checkNoAddition();
    long start = System.nanoTime();
    Set<String> unique = new LinkedHashSet<>(names);
    try (GenerationCommit commit = newCommit()) {
      for (String name : unique) {
        IndexRecord existing = reader().record(name);
        if (existing == null) {
          throw new FileNotInArchiveException(storage.location(), name);
        }
        commit.delete(name, existing);
      }
      GenerationCommit.Result result = collectOnFailure(() -> commit.commit(pool));
      return finish(result, List.of(), 0, 0, unique.size(), 0, 0, 0, start);
    }
  }

  /**
   * Rewrites the parts whose live fraction is below {@code minLiveFraction} (0..1) into new
   * parts, drops them, and merges the names segments into one.
   */
  public ChangeResult compact(double minLiveFraction) throws IOException {
    if (!(minLiveFraction >= 0 && minLiveFraction <= 1)) {
      throw new IllegalArgumentException("live fraction must be in [0, 1]: " + minLiveFraction);
    }
    checkNoAddition();
    long start = System.nanoTime();
    if (!Compactor.hasWork(manifest, minLiveFraction)) {
      return unchanged(start);
    }
    try (GenerationCommit commit = newCommit()) {
      HpfReader current = reader();
      // The parts it copies into belong to no generation until the commit: collected on failure.
      Compactor.Outcome outcome = collectOnFailure(() -> Compactor.run(storage, manifest,
          current, commit, minLiveFraction, nextPartId(storage, manifest), manifest.partSize(),
          options.settings().progress()));
      GenerationCommit.Result result = collectOnFailure(() -> commit.commit(pool));
      return finish(result, List.of(), 0, 0, 0, outcome.bytesWritten(), outcome.partsWritten(),
          outcome.partsRemoved(), start);
    }
  }

  /** The result of a change that had nothing to do: no generation committed, the current one. */
  private ChangeResult unchanged(long start) {
    lastResult = new ChangeResult(manifest.generation(), 0, 0, 0, 0, 0, 0, 0, 0,
        manifest.fileCount(), (System.nanoTime() - start) / 1_000_000,
        HdfsReport.skipped("nothing was committed"), new SourceLinks(), 0, List.of());
    return lastResult;
  }

  /** A step of a change that may throw. */
  @FunctionalInterface
  private interface Step<T> {
    T run() throws IOException;
  }

  /**
   * Runs a step; on failure removes the files it wrote, which no generation names. A commit
   * whose outcome is unknown removes nothing: the generation may name them.
   */
  private <T> T collectOnFailure(Step<T> step) throws IOException {
    try {
      return step.run();
    } catch (UnsettledCommitException e) {
      unsettled(e);
      throw e;
    } catch (IOException | RuntimeException | Error e) {
      try {
        GarbageCollector.collect(storage, options.settings().retainGenerations(), Set.of());
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  private void checkNoAddition() {
    checkOpen();
    if (addition != null) {
      throw new IllegalStateException("members were added and not committed: commit or abort "
          + "them first");
    }
    if (manifest == null) {
      throw new IllegalStateException("the archive is being created: commit it first");
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the writer of " + storage.location() + " is closed");
    }
  }

  private GenerationCommit newCommit() throws IOException {
    return new GenerationCommit(storage, manifest.archiveId(), manifest,
        manifest.hashAlgorithm(), manifest.bucketCapacity(), manifest.blockSize(),
        manifest.partSize(), options);
  }

  /** Reports a commit; runs after its commit point, so it does not throw. */
  private ChangeResult finish(GenerationCommit.Result result, List<String> warnings, long added,
      long replacedCount, long deleted, long bytes, int partsWritten, int partsRemoved,
      long start) {
    List<String> all = new ArrayList<>(result.warnings());
    all.addAll(warnings);
    all.addAll(afterCommit(result.manifest()));
    lastResult = new ChangeResult(result.manifest().generation(), added, replacedCount, deleted,
        bytes, partsWritten, partsRemoved, result.bucketsWritten(), result.indexBytesWritten(),
        result.manifest().fileCount(),
        (System.nanoTime() - start) / 1_000_000, afterCommitHdfs(result.manifest()),
        links == null ? new SourceLinks() : links, skipped, all);
    links = null;
    skipped = 0;
    return lastResult;
  }

  /** What the HDFS integration does once a generation is committed (after GC: unpins its files). */
  private HdfsReport afterCommitHdfs(Manifest committed) {
    try (PhaseClock.Section s = clock.in(Phase.PINNING)) {
      return HdfsIntegration.afterCommit(storage, committed);
    }
  }

  /**
   * Moves to the generation just committed, then removes what no kept generation needs. The
   * change is committed already: a failure here must not report it as failed (a caller would
   * retry it), so the reader is reopened when next needed and garbage waits for the next commit;
   * returns the failures, as warnings.
   */
  private List<String> afterCommit(Manifest committed) {
    manifest = committed;
    committedAny = true;
    try (PhaseClock.Section s = clock.in(Phase.CLEANUP)) {
      return collectAfterCommit(committed);
    }
  }

  private List<String> collectAfterCommit(Manifest committed) {
    List<String> warnings = new ArrayList<>();
    try {
      closeReader();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not close the reader of the previous generation: {}", e.toString());
    }
    try {
      GarbageCollector.collect(storage, options.settings().retainGenerations(), Set.of());
    } catch (IOException | RuntimeException e) {
      Warnings.add(warnings, storage.location(), "generation " + committed.generation()
          + " committed, but removing files no generation needs failed (the next writer"
          + " retries): " + e);
    }
    return warnings;
  }

  /**
   * After a commit whose outcome is unknown: the current generation is read again when next
   * needed, and closing never removes a created archive that may have been committed.
   */
  private void unsettled(UnsettledCommitException e) {
    committedAny = true;
    try {
      refresh();
    } catch (IOException | RuntimeException cause) {
      e.addSuppressed(cause);
    }
  }

  /**
   * The reader of the current generation, opened when first needed. Synchronized: merge threads
   * ask for it concurrently, and two that both found none must not each open one (the second
   * would close the first while the other thread reads with it).
   */
  private synchronized HpfReader reader() throws IOException {
    if (reader == null) {
      refresh();
    }
    return reader;
  }

  private synchronized void refresh() throws IOException {
    closeReader();
    reader = HpfReader.open(storage, new ReaderOptions(options.hasher()));
    manifest = reader.manifest();
  }

  private synchronized void closeReader() throws IOException {
    HpfReader open = reader;
    reader = null;
    if (open != null) {
      open.close();
    }
  }

  /**
   * The first part id of a change built on {@code manifest}: at least its part id floor, and
   * above every part file there (a dead writer's).
   */
  static int nextPartId(ArchiveStorage storage, Manifest manifest) throws IOException {
    int next = manifest == null ? 0 : manifest.partIdFloor();
    for (String name : storage.list("")) {
      next = Math.max(next, ArchiveLayout.partId(name) + 1);
    }
    return next;
  }

  /**
   * Aborts members not committed, then releases the lock. A create that never committed
   * removes the archive directory. A writer that committed does not fail to close for a lock it
   * could not release: its changes stand, and the failure is one of {@link #closeWarnings}
   * (the next writer takes over a lock whose holder is gone).
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      abort();
    } finally {
      closed = true;
      pool.close();
      try {
        release();
      } catch (IOException | RuntimeException e) {
        if (!committedAny) {
          throw e;
        }
        Warnings.add(closeWarnings, storage.location(), "the change is committed, but closing"
            + " the writer failed (a lock left behind is taken over once this process is gone): "
            + e);
      }
    }
  }

  /** What went wrong closing this writer after it had committed: nothing was undone. */
  public List<String> closeWarnings() {
    return List.copyOf(closeWarnings);
  }

  private void release() throws IOException {
    boolean failedCreate = creating != null && manifest == null && !committedAny;
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      try {
        if (failedCreate) {
          // Nothing was committed and nobody else can have used this directory: remove it,
          // before the release, so that the lock confirms it was not taken over meanwhile. On
          // an object store, where the lock does not exclude, only the files this create made:
          // once its lock was broken, the path may hold another create's files, committed or
          // under way, which this writer must not touch.
          try {
            if (creating.own() != null) {
              creating.own().deleteOwn();
            } else {
              storage.deleteRoot();
            }
          } catch (IOException e) {
            LOG.warn("could not remove the failed archive {}: {}", storage.location(),
                e.toString());
          }
        }
      } finally {
        lock.release();
        if (failedCreate && creating.own() != null) {
          removeEmptyDirectory();
        }
      }
    }
  }

  /**
   * Deleting an object store's last object under a directory makes its client mark the
   * directory as still there (S3A writes a marker object): the lock was the archive's last
   * object. A directory that holds anything (another writer's files) stays.
   */
  private void removeEmptyDirectory() {
    try {
      storage.deleteEmptyDirectories(Manifest.DIR);
    } catch (IOException e) {
      LOG.warn("could not remove the failed archive's empty directory {}: {}",
          storage.location(), e.toString());
    }
  }
}
