package org.hpf.internal.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.hpf.CorruptArchiveException;
import org.hpf.HpfException;
import org.hpf.LockLostException;
import org.hpf.MemberAccess;
import org.hpf.NoCommittedGenerationException;
import org.hpf.internal.access.AccessMessages;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.format.ArchiveId;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.JournalHeader;
import org.hpf.internal.format.JournalReader;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.SealedFile;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.hdfs.HdfsReport;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;

/**
 * A create or append whose members are merged elsewhere, in shares that run side by side (the
 * map tasks of a MapReduce job, each a {@link StagedMerge} in a work directory of its own). The
 * driver opens the change, which takes the archive's lock for its whole life and fixes the
 * {@link StagedPlan}; the shares stage their parts and journals below
 * {@link #stagingDirectory()}; {@link #commit} (run once, by the job's committer) adopts the
 * journals of the shares that committed into one new generation; {@link #close} cleans up:
 * after a commit it collects what the new generation no longer needs, otherwise it removes
 * every staged file (and, for a create, the archive directory), so the archive stays as it was.
 */
public final class StagedChange implements AutoCloseable {
  /** Files and bytes below the sources, and the symbolic links the walk met. */
  public record Survey(long files, long bytes, SourceLinks links) {}

  /** Sees each source of {@link #survey}, in walk order. */
  @FunctionalInterface
  public interface SourceVisitor {
    void visit(Source source) throws IOException;
  }

  /** Ends the name of {@link #partIdsName}. */
  static final String PART_IDS = ".part-ids";

  private final Configuration conf;
  private final Path archive;
  private final ArchiveStorage storage;
  private final WriterOptions options;
  private final WriterLock lock;
  private StagedPlan plan;
  private Manifest committed;
  private HdfsReport hdfs;
  private boolean closed;
  private boolean revoked;
  private final List<String> warnings = new ArrayList<>();
  /** The base's access classes and those the listing met; see {@link #accessId}. */
  private AccessClasses accesses;
  private int baseAccesses;
  private MemberAccess defaultAccess;
  /** What the file system gave a new archive's directory (null for an append, or none). */
  private RootAccess given;

  private StagedChange(Configuration conf, Path archive, ArchiveStorage storage,
      WriterOptions options, WriterLock lock, StagedPlan plan) {
    this.conf = conf;
    this.archive = archive;
    this.storage = storage;
    this.options = options;
    this.lock = lock;
    this.plan = plan;
  }

  /** Starts creating {@code archive}, which must not exist or be an empty directory. */
  public static StagedChange create(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return create(conf, archive, storage(conf, archive, options), options);
  }

  /** As {@link #create(Configuration, Path, WriterOptions)}, through {@code archiveStorage}. */
  public static StagedChange create(Configuration conf, Path archive,
      ArchiveStorage archiveStorage, WriterOptions options) throws IOException {
    ArchiveStorage storage = ArchiveFileDeleter.around(archiveStorage);
    if (storage.rootExistsNonEmpty()) {
      throw UncommittedCreate.existsError(storage);
    }
    long blockSize = options.layout().blockSize() > 0 ? options.layout()
        .blockSize() : storage.defaultBlockSize();
    int capacity = ArchiveCreator.capacity(options, blockSize);
    // Only its owner reads the archive until the listing has decided who else may.
    RootAccess given = storage.createPrivateRoot(Manifest.DIR);
    String token = UUID.randomUUID().toString();
    WriterLock lock = WriterLock.acquire(storage, "staged create " + token,
        options.settings().threads());
    ArchiveId id = options.archiveId() != null ? options.archiveId() : ArchiveId.random();
    StagedChange change = start(conf, archive, lock.fence(storage), options, lock,
        new StagedPlan(token, id, new JournalHeader(JournalHeader.CREATE, false,
            options.newArchiveAlgorithm(), 0, capacity, blockSize, options.layout()
                .partSize()), 0));
    change.given = given;
    return change;
  }

  /** Starts appending to {@code archive}: lock, then recover if a writer died. */
  public static StagedChange append(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return append(conf, archive, storage(conf, archive, options), options);
  }

  /** As {@link #append(Configuration, Path, WriterOptions)}, through {@code archiveStorage}. */
  public static StagedChange append(Configuration conf, Path archive,
      ArchiveStorage archiveStorage, WriterOptions options) throws IOException {
    ArchiveStorage storage = ArchiveFileDeleter.around(archiveStorage);
    UncommittedCreate.requireManifestsDirectory(storage);
    String token = UUID.randomUUID().toString();
    WriterLock lock = WriterLock.take(storage, "staged append " + token, options.settings());
    storage = lock.fence(storage);
    WriterPool pool = WriterPool.start(options.settings().threads());
    try {
      Recovery.Report recovered = Recovery.run(storage, options, pool, lock.fencedWriters(),
          false)
          .withLockTakenOver(lock.takenOver());
      Recovery.log(storage, recovered);
      if (recovered.removedCreate()) {
        lock.release();
        storage.deleteEmptyDirectories(Manifest.DIR);
        throw UncommittedCreate.removedError(storage.location());
      }
      long generation = Recovery.committedGeneration(storage);
      if (generation == 0) {
        throw new NoCommittedGenerationException(storage.location(), false);
      }
      Manifest base = Manifest.read(storage, generation);
      return start(conf, archive, storage, options, lock, new StagedPlan(token, base.archiveId(),
          new JournalHeader(JournalHeader.APPEND, false, base.hashAlgorithm(), generation,
              base.bucketCapacity(),
              base.blockSize(), base.partSize()), ArchiveWriter.nextPartId(storage, base)));
    } catch (IOException | RuntimeException | Error e) {
      lock.release();
      throw e;
    } finally {
      pool.close();
    }
  }

  private static StagedChange start(Configuration conf, Path archive, ArchiveStorage storage,
      WriterOptions options, WriterLock lock, StagedPlan plan) throws IOException {
    StagedChange change = new StagedChange(conf, archive, storage, options, lock, plan);
    try {
      storage.mkdirs(stagingName(plan));
      // The listing names every source: only the archiving user (whose tasks merge them)
      // reads the staged work, whoever may read the archive.
      Path staging = change.stagingDirectory();
      FileSystem fs = staging.getFileSystem(conf);
      if (fs.getFileStatus(staging).getPermission().toShort() != 0700) {
        fs.setPermission(staging, new org.apache.hadoop.fs.permission.FsPermission((short) 0700));
      }
      return change;
    } catch (IOException | RuntimeException | Error e) {
      change.close();
      throw e;
    }
  }

  /**
   * The archive's storage for {@code options}: what the driver and the job's committer change it
   * through (each use puts the one deleter around it).
   */
  public static ArchiveStorage storage(Configuration conf, Path archive, WriterOptions options)
      throws IOException {
    return HdfsIntegration.storageToChange(conf, archive, (short) options.layout().replication(),
        options.layout().partSize(), options.settings());
  }

  private static String stagingName(StagedPlan plan) {
    return ArchiveLayout.STAGING + "/" + plan.token();
  }

  public StagedPlan plan() {
    return plan;
  }

  /** The writer options the change was started with. */
  public WriterOptions options() {
    return options;
  }

  /**
   * True on a store without rename (an object store): the shares write their parts where the
   * archive's parts are, under ids of their own, rather than in their work directories.
   */
  public boolean partsInPlace() throws IOException {
    return storage.profile() == StorageProfile.CONDITIONAL_CREATE;
  }

  /** Where the shares stage their work: a directory of this change's own. */
  public Path stagingDirectory() throws IOException {
    FileSystem fs = archive.getFileSystem(conf);
    return new Path(fs.makeQualified(archive), stagingName(plan));
  }

  /**
   * Walks the sources once before anything is merged: counts them, fails on a name two roots
   * both give and, for an append, on names the archive has, and shows each source to
   * {@code visitor}. Then settles who may read the archive, before any task writes a byte:
   * a new archive gets the access every source allows, an existing one is narrowed to it.
   */
  public Survey survey(List<Path> roots, SourceVisitor visitor) throws IOException {
    HpfReader reader = plan.creates() ? null
        : HpfReader.open(storage, new ReaderOptions(options.hasher()));
    try {
      AccessPlan access = new AccessPlan();
      SourceSurvey.Totals totals = SourceSurvey.run(conf, roots, options, storage.location(),
          reader == null ? null
              : source -> ArchiveWriter.existing(reader, source.name()) != null,
          visitor::visit, access, PhaseClock.start());
      settleAccess(access, reader == null ? null : reader.manifest());
      return new Survey(totals.files(), totals.bytes(), totals.links());
    } finally {
      if (reader != null) {
        reader.close();
      }
    }
  }

  private void settleAccess(AccessPlan access, Manifest base) throws IOException {
    RootAccess current = base == null ? given : storage.rootAccess();
    if (current == null) {
      return;
    }
    AccessPlan.Decision decision =
        AccessSettlement.settle(storage, access, current, base, options);
    if (base == null) {
      // Everyone the decision admits could read every source: the staged work may be theirs.
      storage.setRootAccess(decision.access());
    }
    warnings.addAll(AccessMessages.narrowed(storage.location(), decision));
  }

  /**
   * The access class of a listed source (the writer's default for one without an access),
   * introducing it when new: the driver gives every source its id, so shares agree on them.
   */
  public int accessId(Source source) throws IOException {
    if (accesses == null) {
      Manifest base = plan.creates() ? null
          : Manifest.read(storage, plan.header().baseGeneration());
      accesses = new AccessClasses(base);
      baseAccesses = accesses.all().size();
      defaultAccess = options.settings().defaultAccess().orElse(null);
      if (defaultAccess == null) {
        defaultAccess = MemberAccess.defaultFor(conf);
      }
    }
    return accesses.idOf(source.access() != null ? source.access() : defaultAccess);
  }

  /**
   * Ends the listing: the plan from now on introduces the access classes it met first and has
   * part ids set aside up to {@code partIdLimit}. Returns that plan, for the shares.
   */
  public StagedPlan listed(int partIdLimit) throws IOException {
    plan = plan.withListing(introducedAccesses(), partIdLimit);
    if (partsInPlace()) {
      // The tasks write their parts in place and confirm no lock: a recovery that breaks this
      // lock must learn which ids they may still take, so the limit is recorded first, and the
      // lock confirmed after it (once it is confirmed, any breaker reads the record).
      try (var record = storage.create(partIdsName(plan.token()), 0)) {
        record.stream().write(Integer.toString(partIdLimit).getBytes(StandardCharsets.UTF_8));
      }
      lock.confirm();
    }
    return plan;
  }

  /** Where a build whose tasks write parts in place records the first id they may not use. */
  static String partIdsName(String token) {
    return ArchiveLayout.STAGING + "/" + token + PART_IDS;
  }

  /** The access classes the listing introduced, in id order after the base's. */
  public List<MemberAccess> introducedAccesses() {
    if (accesses == null) {
      return List.of();
    }
    List<MemberAccess> all = accesses.all();
    return all.subList(baseAccesses, all.size());
  }

  /**
   * Commits the staged work of {@code plan}: every member journaled by {@code shares} (each
   * journal a finished {@link StagedMerge#JOURNAL}, its parts already moved into the archive
   * directory) becomes part of one new generation. Fails, committing nothing, when the change's
   * lock is no longer held (its driver died or the lock was broken), another generation was
   * committed meanwhile, a journal does not hold what its share says, or points into a part
   * that is not one its share sealed.
   */
  public static Manifest commit(Configuration conf, Path archive, StagedPlan plan,
      List<StagedShare> shares, WriterOptions options) throws IOException {
    return commit(conf, storage(conf, archive, options), plan, shares, options);
  }

  /** As {@link #commit(Configuration, Path, StagedPlan, List, WriterOptions)}, through one. */
  public static Manifest commit(Configuration conf, ArchiveStorage archiveStorage,
      StagedPlan plan, List<StagedShare> shares, WriterOptions options) throws IOException {
    ArchiveStorage unfenced = ArchiveFileDeleter.around(archiveStorage);
    checkCurrent(unfenced, plan);
    // Confirmed again before the manifest's rename: the driver may lose the lock, or revoke the
    // job's right to commit, meanwhile. On an object store the manifest's conditional create is
    // the fence (the driver fences a job it gave up on by generation, see close()).
    ArchiveStorage storage = unfenced.profile() == StorageProfile.CONDITIONAL_CREATE
        ? new OwnFiles(unfenced)
        : new FencedStorage(unfenced, () -> confirmRight(unfenced, plan));
    JournalHeader header = plan.header();
    Manifest base = header.baseGeneration() == 0 ? null
        : Manifest.read(storage, header.baseGeneration());
    WriterPool pool = WriterPool.start(options.settings().threads());
    try (GenerationCommit commit = new GenerationCommit(storage, plan.archiveId(), base,
        header.hashAlgorithm(), header.bucketCapacity(), header.blockSize(), header.partSize(),
        options)) {
      commit.reservePartIdsBelow(plan.partIdLimit());
      int next = base == null ? 1 : base.accesses().size() + 1;
      for (MemberAccess access : plan.accesses()) {
        commit.accesses().define(next++, access, "the job's plan");
      }
      Map<Integer, StagedShare> adopted = new HashMap<>();
      for (StagedShare share : shares) {
        adoptShare(conf, storage, commit, base, plan, share, adopted);
      }
      return commit.commit(pool).manifest();
    } finally {
      pool.close();
    }
  }

  /**
   * Fails, committing nothing, unless the change that staged the work of {@code plan} still
   * holds the archive's lock and no other generation was committed since it began: to check
   * before anything of the work is moved into the archive directory.
   */
  public static void checkCurrent(ArchiveStorage storage, StagedPlan plan) throws IOException {
    if (!mayCommit(storage, plan)) {
      throw new HpfException(storage.location() + ": the change that staged this work no "
          + "longer holds the archive's lock, or its driver gave up on the job (it died, the "
          + "lock was broken, or the job failed); nothing was committed");
    }
    long newest = Recovery.committedGeneration(storage);
    if (newest != plan.header().baseGeneration()) {
      throw new HpfException(storage.location() + ": generation " + newest + " was committed "
          + "while the change built on generation " + plan.header().baseGeneration()
          + " was staged; nothing was committed");
    }
  }

  /**
   * True while the work of {@code plan} may be committed: the archive's lock names the change
   * that staged it, and its driver has not revoked the job's right to commit ({@link #revoke}).
   */
  private static boolean mayCommit(ArchiveStorage storage, StagedPlan plan) throws IOException {
    return WriterLock.heldBy(storage, plan.token()) && !storage.exists(revocationName(plan));
  }

  /** The job commit's fence: returns while {@link #mayCommit}, else the lock is lost to it. */
  private static void confirmRight(ArchiveStorage storage, StagedPlan plan) throws IOException {
    if (!mayCommit(storage, plan)) {
      throw new LockLostException(storage.location(), "the change that staged this work no "
          + "longer holds it: its driver died or gave up on the job, or the lock was taken over "
          + "or broken");
    }
  }

  /**
   * Where the driver's revocation of the job's right to commit is recorded: below the staging
   * directory, removed with it, last, before the lock is released.
   */
  private static String revocationName(StagedPlan plan) {
    return ArchiveLayout.STAGING + "/" + plan.token() + ".revoked";
  }

  /**
   * Takes from the job the right to commit the staged work, before the driver cleans up after
   * it: a job commit still running past {@code killJob()} then publishes nothing, and fails its
   * check before the manifest's rename; what it already moved in is garbage. Call
   * {@link #finish} after it: a commit that published before it counts.
   */
  public void revoke() throws IOException {
    if (revoked) {
      return;
    }
    try (var marker = storage.create(revocationName(plan), 0)) {
      marker.stream().write(plan.token().getBytes(StandardCharsets.UTF_8));
    }
    revoked = true;
  }

  /** Puts a share's journaled members into the generation, checking them against the share. */
  private static void adoptShare(Configuration conf, ArchiveStorage storage,
      GenerationCommit commit, Manifest base, StagedPlan plan, StagedShare share,
      Map<Integer, StagedShare> adopted) throws IOException {
    Path journal = share.journal();
    FileSystem fs = journal.getFileSystem(conf);
    long length = fs.getFileStatus(journal).getLen();
    long[] journaled = new long[2]; // members, bytes
    try (ArchiveInput in = new HadoopStorage.HadoopInput(journal.toString(), fs.open(journal),
        length)) {
      JournalReader.Scan scan = JournalReader.scan(in, journal.toString(), plan.archiveId(),
          entry -> {
            int part = entry.record().part();
            StagedShare owner = adopted.putIfAbsent(part, share);
            if (owner == null) {
              adopt(storage, commit, base, plan, part, share);
            } else if (owner != share) {
              throw new CorruptArchiveException(journal.toString(), 0, "the journals of "
                  + owner.name() + " and " + share.name() + " both point into "
                  + ArchiveLayout.part(part));
            }
            journaled[0]++;
            journaled[1] += entry.record().originalLength();
            commit.put(entry.name(), entry.record(), entry.mtimeMillis(), null);
          });
      if (scan.tornTail() || !scan.header().equals(plan.header())) {
        throw new CorruptArchiveException(journal.toString(), scan.validLength(),
            scan.tornTail() ? "the journal of a finished share is cut short"
                : "the journal is of another change: " + scan.header());
      }
    }
    if (journaled[0] != share.files() || journaled[1] != share.bytes()) {
      throw new HpfException(journal + ": the journal of " + share.name() + " holds "
          + journaled[0] + " files (" + journaled[1] + " bytes) where its share was listed "
          + "with " + share.files() + " (" + share.bytes() + " bytes); nothing was committed");
    }
  }

  /**
   * Adds a staged part to the generation being built, checked new, sealed, and the very part
   * {@code share} wrote (its length and footer checksum).
   */
  private static void adopt(ArchiveStorage storage, GenerationCommit commit, Manifest base,
      StagedPlan plan, int part, StagedShare share) throws IOException {
    String name = ArchiveLayout.part(part);
    String journal = share.journal().toString();
    if (part < plan.firstPartId() || (base != null && base.part(part) != null)) {
      throw new CorruptArchiveException(journal, 0, "journal points into " + name
          + ", which is not a part of this change");
    }
    StagedShare.PartSeal seal = share.parts().get(part);
    if (seal == null) {
      throw new CorruptArchiveException(journal, 0, "journal points into " + name + ", which "
          + share.name() + " did not seal");
    }
    if (!storage.exists(name)) {
      throw new CorruptArchiveException(storage.location(name), 0, "the part a committed "
          + "share journaled is missing");
    }
    try (ArchiveInput in = storage.open(name)) {
      long length = in.length();
      int checksum = length < 4 ? 0 : ByteBuffer.wrap(in.readFully(length - 4, 4)).getInt();
      if (length != seal.length() || checksum != seal.checksum()) {
        throw new CorruptArchiveException(storage.location(name), length, String.format(
            "not the part %s wrote (length %d, checksum %08x; it sealed length %d, checksum "
                + "%08x)", share.name(), length, checksum, seal.length(), seal.checksum()));
      }
      if (!SealedFile.footerMatches(in)) {
        throw new CorruptArchiveException(storage.location(name), in.length(),
            "the part a committed share journaled is not sealed");
      }
      commit.addPart(part, in.length());
    }
  }

  /**
   * After the shares ran: the generation the change committed (then collects what no kept
   * generation needs and applies the HDFS features), or null if none was.
   */
  public Manifest finish() throws IOException {
    long newest = Recovery.committedGeneration(storage);
    if (newest > plan.header().baseGeneration()) {
      committed = Manifest.read(storage, newest);
      removeStaging();
      try {
        GarbageCollector.collect(storage, options.settings().retainGenerations(), Set.of());
      } catch (IOException e) {
        warn("generation " + newest + " committed, but removing files no generation needs "
            + "failed (the next change retries): " + e);
      }
      hdfs = HdfsIntegration.afterCommit(storage, committed);
    }
    return committed;
  }

  /** The generation {@link #finish} found committed, or null (none, or not looked yet). */
  public Manifest committed() {
    return committed;
  }

  /** What the HDFS features did after the commit (null before {@link #finish} found one). */
  public HdfsReport hdfsReport() {
    return hdfs;
  }

  private void removeStaging() {
    try {
      storage.deleteDirectory(ArchiveLayout.STAGING);
    } catch (IOException e) {
      warn("could not remove the staged work in " + storage.location() + ": " + e);
    }
  }

  private void warn(String warning) {
    Warnings.add(warnings, storage.location(), warning);
  }

  /** What {@link #finish} and {@link #close} could not clean up: left to the next writer. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * Leaves the staged work and the lock as they are, as a driver that died would: for shares
   * that may still be committed by a job the driver lost, which must find the lock its own and
   * the staged work in place. Recovery, once the lock is broken, removes the staged work.
   */
  public void abandon() {
    closed = true;
  }

  /**
   * Releases the lock. Without a commit, first removes every staged file and every part that
   * committed shares moved into the archive; a create that committed nothing removes the
   * archive directory.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (committed != null) {
      lock.release();
      return;
    }
    try {
      if (partsInPlace()) {
        if (plan.creates()) {
          // Parts of attempts that died too, and pending uploads: the archive is not there.
          UncommittedCreate.remove(storage);
        } else {
          // Parts that attempts which died wrote in place: fenced off, then collected.
          Recovery.log(storage, FencingRecovery.run(storage, options,
              FencedParts.NONE.withIdLimit(plan.partIdLimit()), true));
        }
      } else if (!plan.creates()) {
        GarbageCollector.collect(storage, options.settings().retainGenerations(), Set.of());
      } else if (Recovery.committedGeneration(storage) == 0) {
        storage.deleteRoot(); // under the lock, which confirms that it was not taken over
        return; // the staged work with it
      }
      // Last: the driver's revocation of the job's right to commit stays until the lock goes.
      removeStaging();
    } finally {
      lock.release();
    }
    if (partsInPlace() && plan.creates()) {
      // Only what is empty: the lock there does not exclude another writer.
      storage.deleteEmptyDirectories(Manifest.DIR);
    }
  }

  /**
   * On a store without rename, before {@link #close} of a change that committed nothing:
   * deletes the parts with {@code ids} that its shares wrote in place (those their seals name;
   * a share that failed deleted its own). Not for an append whose job may still be committing
   * (killed): its commit past its check could still publish them until close commits the base
   * again over its generation's name, and close collects them then. Ids outside the range the
   * change set aside are refused: they are not its shares'. Deletes nothing once any generation
   * after the change's base is committed (the job's own, whose check by {@link #finish} failed,
   * say): the collector, which keeps what the generations name, removes what is left then.
   */
  public void deleteUncommittedParts(Collection<Integer> ids) throws IOException {
    if (committed != null || !partsInPlace()) {
      throw new IllegalStateException("only the parts of an uncommitted change on a store "
          + "without rename are deleted by id");
    }
    if (Recovery.committedGeneration(storage) != plan.header().baseGeneration()) {
      return;
    }
    for (int id : ids) {
      if (id < plan.firstPartId() || id >= plan.partIdLimit()) {
        throw new IllegalArgumentException("part " + id + " is not one of this change's ids ("
            + plan.firstPartId() + " to " + (plan.partIdLimit() - 1) + ")");
      }
      storage.delete(ArchiveLayout.part(id));
    }
  }
}
