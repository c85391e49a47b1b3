package org.hpf.crash;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.ArchiveExistsException;
import org.hpf.ArchiveLockedException;
import org.hpf.ConcurrentCommitException;
import org.hpf.LockLostException;
import org.hpf.NoCommittedGenerationException;
import org.hpf.StaleGenerationException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.hdfs.HdfsIntegration;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.StorageProfile;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.StoreCommits;
import org.hpf.internal.write.WriterOptions;
import org.hpf.mapreduce.ArchiveJobException;
import org.hpf.minicluster.S3Server;

/**
 * Runs two actors on one archive in an order the test chooses, and checks what came of it.
 * Actor A is held before its i-th storage call; B then runs to its end; A goes on. For every
 * call of A (the count comes from A running alone), that is one schedule, replayed exactly by
 * its pair, storage and i, which every failure names.
 *
 * <p>Each schedule is checked against these oracles: every member of the newest generation
 * reads back byte for byte, and no member that no successful change removed is gone; verify
 * passes; an actor that reported success has its change in the archive, one that reported
 * failure has none of it, one that could not know says so (unsettled) and recovery settles it
 * whole; outcomes are hpf's documented exceptions, nothing raw; at the moment of every delete
 * no kept generation names the file ({@link KeptFiles}); after recovery nothing unreferenced is
 * left and nothing a kept generation names is missing.
 */
final class ScheduleExplorer {
  /** Where the archives of a sweep live. */
  interface Place {
    String name();

    Configuration conf();

    /** A path no archive has used. */
    Path newArchive(String label) throws IOException;

    ArchiveStorage storage(Path archive) throws IOException;

    /** Called when a schedule has been checked: releases what its storages opened. */
    default void scheduleEnded() throws IOException {}
  }

  /**
   * Brings a schedule's archive to where both its actors start (a MapReduce job staged on it,
   * say), before either runs; also before an actor's calls are counted.
   */
  @FunctionalInterface
  interface Preparation {
    void run(Path archive) throws Exception;
  }

  /** What an actor does, through the storage given. */
  @FunctionalInterface
  interface Body {
    void run(Configuration conf, ArchiveStorage storage) throws Exception;
  }

  /**
   * An actor and the change it makes, if it makes one; {@code onBase} where it works on the
   * base archive, false for a create (its schedules start from an empty path).
   */
  record Actor(String name, Map<String, byte[]> adds, Set<String> deletes, Body body,
      boolean onBase) {
    Actor(String name, Map<String, byte[]> adds, Set<String> deletes, Body body) {
      this(name, adds, deletes, body, true);
    }

    boolean changes() {
      return !adds.isEmpty() || !deletes.isEmpty();
    }

    /**
     * True for an actor that opens the archive breaking whatever lock it finds, or taking over
     * a lock whose holder's lease expired: either holds the lock rightfully.
     */
    boolean breaksLock() {
      return name.endsWith("(break-lock)") || name.endsWith(TAKES_OVER);
    }
  }

  /** The end of the name of an actor that sees the lock's holder gone ({@link #takingOver}). */
  static final String TAKES_OVER = "(takes over)";

  /** How far apart the calls a sweep holds A before are: 1 in CI, more in the fast tier. */
  static final int STRIDE = Integer.getInteger("hpf.schedule.stride", 1);

  /** What an actor reported. */
  enum Outcome {
    /** Returned normally: its change is committed. */
    SUCCEEDED,
    /** Said nothing of its change was committed (or was refused before it began). */
    FAILED,
    /** Said it cannot know (lock lost, unsettled commit): recovery settles it. */
    UNSETTLED
  }

  /** How an actor ended: its outcome (null where it is not a documented one) and error. */
  record Ended(Outcome outcome, Throwable error) {}

  /** The members of the base archive every schedule starts from. */
  static final Map<String, byte[]> BASE = members("base/m", 12, 1);
  /** Base members deleted before the schedules start, so that compaction has work. */
  private static final Set<String> DELETED_BEFORE = Set.of("base/m0", "base/m1");

  private final Place place;
  private final List<String> failures = new ArrayList<>();
  private int schedules;
  private Preparation preparation = archive -> {};

  ScheduleExplorer(Place place) {
    this.place = place;
  }

  /** This explorer, every archive of its schedules brought first where {@code preparation} says. */
  ScheduleExplorer preparing(Preparation preparation) {
    this.preparation = preparation;
    return this;
  }

  /** Archives on the local file system, below {@code dir}. */
  static Place localDisk(java.nio.file.Path dir) {
    return new Place() {
      private int archives;

      @Override
      public String name() {
        return "local disk";
      }

      @Override
      public Configuration conf() {
        return ArchiveFixtures.CONF;
      }

      @Override
      public Path newArchive(String label) {
        return ArchiveFixtures.hadoopPath(dir.resolve("a" + archives++));
      }

      @Override
      public ArchiveStorage storage(Path archive) throws IOException {
        return ArchiveFixtures.storage(java.nio.file.Path.of(archive.toUri()));
      }
    };
  }

  /**
   * Archives on the local file system under an object store's commit rules
   * ({@link ConditionalLocalStorage}), below {@code dir}.
   */
  static Place conditionalLocalDisk(java.nio.file.Path dir) {
    Place local = localDisk(dir);
    return new Place() {
      @Override
      public String name() {
        return "object store rules on local disk";
      }

      @Override
      public Configuration conf() {
        return local.conf();
      }

      @Override
      public Path newArchive(String label) throws IOException {
        return local.newArchive(label);
      }

      @Override
      public ArchiveStorage storage(Path archive) throws IOException {
        return new ConditionalLocalStorage(local.storage(archive),
            java.nio.file.Path.of(archive.toUri()));
      }
    };
  }

  /**
   * Archives on HDFS (the shared MiniDFSCluster): each storage a client of its own, with its
   * own leases, as each actor is a process of its own; closed when the schedule ends.
   */
  static Place hdfs(org.hpf.testing.MiniDfs dfs) {
    String run = java.util.UUID.randomUUID().toString();
    return new Place() {
      private final Configuration conf = dfs.configuration();
      private final List<org.apache.hadoop.fs.FileSystem> clients = new ArrayList<>();
      private int archives;

      @Override
      public String name() {
        return "HDFS";
      }

      @Override
      public Configuration conf() {
        return conf;
      }

      @Override
      public Path newArchive(String label) {
        return new Path("/schedules/" + run + "/a" + archives++ + ".hpf");
      }

      @Override
      public synchronized ArchiveStorage storage(Path archive) throws IOException {
        org.apache.hadoop.fs.FileSystem client =
            org.apache.hadoop.fs.FileSystem.newInstance(dfs.cluster().getURI(), conf);
        clients.add(client);
        return HdfsIntegration.storage(client, client.makeQualified(archive));
      }

      @Override
      public synchronized void scheduleEnded() throws IOException {
        for (org.apache.hadoop.fs.FileSystem client : clients) {
          client.close();
        }
        clients.clear();
      }
    };
  }

  /** Archives on the S3 server, each under a key of its own. */
  static Place objectStore(S3Server server) {
    String run = java.util.UUID.randomUUID().toString();
    return new Place() {
      private final Configuration conf = server.configuration();
      private int archives;

      @Override
      public String name() {
        return "object store";
      }

      @Override
      public Configuration conf() {
        return conf;
      }

      @Override
      public Path newArchive(String label) {
        return new Path(server.bucketRoot(), "schedules/" + run + "/a" + archives++ + ".hpf");
      }

      @Override
      public ArchiveStorage storage(Path archive) throws IOException {
        return HdfsIntegration.storage(archive.getFileSystem(conf), archive);
      }
    };
  }

  // ---- actors ----

  static WriterOptions options(boolean breakLock) {
    return WriterOptions.builder().settings(s -> s.threads(1).breakLock(breakLock))
        .layout(l -> l.withPartSize(4096).withBucketCapacity(24)).build();
  }

  static Actor append(String label, boolean breakLock) {
    Map<String, byte[]> adds = members(label + "/n", 5, label.hashCode());
    return new Actor("append " + label + (breakLock ? " (break-lock)" : ""), adds, Set.of(),
        (conf, storage) -> {
          try (ArchiveWriter writer = ArchiveWriter.open(conf, storage, options(breakLock))) {
            for (Map.Entry<String, byte[]> add : adds.entrySet()) {
              writer.add(add.getKey(), add.getValue(), 1_000_000L);
            }
            writer.commit();
          }
        });
  }

  static Actor delete(List<String> names, boolean breakLock) {
    return new Actor("delete" + (breakLock ? " (break-lock)" : ""), Map.of(), Set.copyOf(names),
        (conf, storage) -> {
          try (ArchiveWriter writer = ArchiveWriter.open(conf, storage, options(breakLock))) {
            writer.delete(names);
          }
        });
  }

  static Actor compact(boolean breakLock) {
    return new Actor("compact" + (breakLock ? " (break-lock)" : ""), Map.of(), Set.of(),
        (conf, storage) -> {
          try (ArchiveWriter writer = ArchiveWriter.open(conf, storage, options(breakLock))) {
            writer.compact(0.99);
          }
        });
  }

  static Actor create(String label) {
    Map<String, byte[]> adds = members(label + "/n", 5, label.hashCode());
    return new Actor("create " + label, adds, Set.of(), (conf, storage) -> {
      try (ArchiveWriter writer = ArchiveWriter.create(conf, storage, options(false))) {
        for (Map.Entry<String, byte[]> add : adds.entrySet()) {
          writer.add(add.getKey(), add.getValue(), 1_000_000L);
        }
        writer.commit();
      }
    }, false);
  }

  /**
   * {@code actor} on another machine, after the holder of any lock it finds stopped renewing
   * its HDFS lease past the soft limit ({@link ExpiredLeaseView}): it takes the lock over, as
   * {@code WriterLock} takes over a dead holder's, instead of being refused.
   */
  static Actor takingOver(Actor actor) {
    Body body = actor.body();
    return new Actor(actor.name() + " " + TAKES_OVER, actor.adds(), actor.deletes(),
        (conf, storage) -> body.run(conf, new ExpiredLeaseView(storage)), actor.onBase());
  }

  static Actor recover(boolean breakLock) {
    return new Actor("recover" + (breakLock ? " (break-lock)" : ""), Map.of(), Set.of(),
        (conf, storage) -> ArchiveWriter.open(conf, storage, options(breakLock)).close());
  }

  /**
   * A reader: opens the archive, reads every member it lists, then, if a generation was
   * committed meanwhile, opens the newest and reads every member again. It changes nothing. A
   * member whose bytes are none that the base or an actor gave that name is an undocumented
   * error; a generation no longer kept ({@link StaleGenerationException}) is a documented end.
   */
  static Actor reader(Map<String, byte[]> known) {
    return new Actor("reader", Map.of(), Set.of(), (conf, storage) -> {
      try (HpfReader first = HpfReader.open(storage, ReaderOptions.defaults())) {
        readAll(first, known);
        try (HpfReader newest = first.reopenIfChanged()) {
          if (newest != null) {
            readAll(newest, known);
          }
        }
      }
    });
  }

  private static void readAll(HpfReader reader, Map<String, byte[]> known) throws IOException {
    List<String> names;
    try (var listed = reader.list()) {
      names = listed.toList();
    }
    for (String name : names) {
      byte[] expected = known.get(name);
      if (expected == null || !Arrays.equals(expected, reader.get(name))) {
        throw new AssertionError("the reader of generation " + reader.generation() + " got "
            + (expected == null ? "a member from nowhere, " : "other bytes for ") + name);
      }
    }
  }

  // ---- sweeps ----

  /**
   * Every schedule of the pair: A held before each of its calls in turn while B runs whole.
   * Returns the number of schedules run.
   */
  int sweep(Actor a, Actor b) throws Exception {
    return sweep(a, b, STRIDE);
  }

  /**
   * {@link #sweep(Actor, Actor)}, then the count of its schedules printed (for the record of
   * what CI explored) and every failure thrown.
   */
  void sweepAndCheck(Actor a, Actor b) throws Exception {
    int run = sweep(a, b);
    System.out.println(a.name() + " x " + b.name() + ", " + place.name() + ": " + run
        + " schedules");
    assertNoFailures();
  }

  /** As {@link #sweep(Actor, Actor)}, holding A only before every {@code stride}-th call. */
  int sweep(Actor a, Actor b, int stride) throws Exception {
    int calls = countCalls(a);
    int run = 0;
    for (int i = 1; i <= calls; i += stride) {
      runSchedule(a, b, i);
      run++;
    }
    return run;
  }

  /**
   * A sample of at most {@code count} of the pair's schedules, for a slow storage: A held before
   * calls that open, create, close, renames or delete a manifest or the lock (where commits are
   * decided; not the writes of their bytes), and before calls spread over the rest, evenly
   * spaced. Returns the number of schedules run.
   */
  int sample(Actor a, Actor b, int count) throws Exception {
    List<String> calls = callsOf(a);
    List<Integer> deciding = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (int i = 1; i <= calls.size(); i++) {
      String call = calls.get(i - 1);
      boolean decides = (call.contains(Manifest.DIR) || call.contains("_lock"))
          && !call.matches("(write|flush|hflush|hsync) .*");
      (decides ? deciding : others).add(i);
    }
    TreeSet<Integer> holds = new TreeSet<>(spread(deciding, count * 2 / 3));
    holds.addAll(spread(others, count - holds.size()));
    for (int holdAt : holds) {
      runSchedule(a, b, holdAt);
    }
    return holds.size();
  }

  /**
   * The pair's schedules that hold A before each call of its own whose trace line ({@code
   * "recoverLease _journal-0000000003"}, say) {@code call} accepts. Returns their number.
   */
  int sweepWhere(Actor a, Actor b, java.util.function.Predicate<String> call) throws Exception {
    List<String> calls = callsOf(a);
    int run = 0;
    for (int i = 1; i <= calls.size(); i++) {
      if (call.test(calls.get(i - 1))) {
        runSchedule(a, b, i);
        run++;
      }
    }
    return run;
  }

  /** At most {@code count} of {@code items}, evenly spaced, the first and last included. */
  private static List<Integer> spread(List<Integer> items, int count) {
    if (items.size() <= count) {
      return items;
    }
    List<Integer> picked = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      picked.add(items.get(count == 1 ? 0 : (int) ((long) k * (items.size() - 1) / (count - 1))));
    }
    return picked;
  }

  /** How many storage calls {@code actor} makes running alone on the base archive. */
  int countCalls(Actor actor) throws Exception {
    return callsOf(actor).size();
  }

  /** The storage calls {@code actor} makes running alone on the base archive, in order. */
  private List<String> callsOf(Actor actor) throws Exception {
    Path archive = actor.onBase() ? base("count") : place.newArchive("count");
    preparation.run(archive);
    Stepper stepper = Stepper.counting();
    ArchiveStorage raw = place.storage(archive);
    try {
      // Alone, an actor may end as documented without success (the driver of a failed job).
      Ended alone = end(actor, new SteppedStorage(raw, stepper, new KeptFiles(raw)));
      if (alone.outcome() == null) {
        throw new AssertionError(actor.name() + ", alone, ended with an undocumented error",
            alone.error());
      }
    } finally {
      place.scheduleEnded();
    }
    return stepper.trace();
  }

  /** One schedule: A held before its call {@code holdAt}, B run whole, A let go. */
  void runSchedule(Actor a, Actor b, int holdAt) throws Exception {
    schedules++;
    String label = a.name() + "-" + b.name() + "-" + holdAt;
    Path archive = a.onBase() ? base(label) : place.newArchive(label);
    preparation.run(archive);
    ArchiveStorage raw = place.storage(archive);
    KeptFiles kept = new KeptFiles(raw);
    Stepper held = new Stepper(holdAt);
    ExecutorService thread = Executors.newSingleThreadExecutor();
    String schedule = place.name() + ": " + a.name() + " held before call " + holdAt + ", "
        + b.name() + " run whole";
    try {
      Future<Ended> first = thread.submit(() -> end(a, new SteppedStorage(place.storage(archive),
          held, kept)));
      boolean wasHeld = held.awaitHeld(first);
      Ended second = end(b, new SteppedStorage(place.storage(archive), Stepper.counting(), kept));
      held.release();
      Ended ended;
      try {
        ended = first.get(3, TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        failures.add(schedule + ": " + a.name() + " never ended");
        return;
      }
      String where = wasHeld ? schedule + " (" + held.heldAt() + ")" : schedule
          + " (A ended first)";
      check(where, archive, raw, kept, Map.of(a, ended, b, second), a.onBase());
    } finally {
      thread.shutdownNow();
      place.scheduleEnded();
    }
  }

  Ended end(Actor actor, ArchiveStorage storage) {
    try {
      actor.body().run(place.conf(), storage);
      return new Ended(Outcome.SUCCEEDED, null);
    } catch (ArchiveLockedException | ConcurrentCommitException | ArchiveExistsException
        | NoCommittedGenerationException | StaleGenerationException | ArchiveJobException e) {
      return new Ended(Outcome.FAILED, e);
    } catch (FileNotFoundException e) {
      return new Ended(e.getMessage() != null && e.getMessage().startsWith("archive does not "
          + "exist") ? Outcome.FAILED : null, e);
    } catch (LockLostException e) {
      return new Ended(Outcome.UNSETTLED, e);
    } catch (IOException e) {
      return new Ended(e.getClass().getSimpleName().equals("UnsettledCommitException")
          ? Outcome.UNSETTLED : null, e);
    } catch (Throwable e) {
      return new Ended(null, e);
    }
  }

  /** A fresh archive holding {@link #BASE}, less {@link #DELETED_BEFORE}, at generation 2. */
  Path base(String label) throws IOException {
    Path archive = place.newArchive(label);
    ArchiveStorage storage = place.storage(archive);
    try (ArchiveWriter writer = ArchiveWriter.create(place.conf(), storage, options(false))) {
      for (Map.Entry<String, byte[]> member : BASE.entrySet()) {
        writer.add(member.getKey(), member.getValue(), 1_000_000L);
      }
      writer.commit();
      writer.delete(DELETED_BEFORE);
    }
    return archive;
  }

  // ---- oracles ----

  /** True where the archive's path holds nothing at all, or is not there. */
  private static boolean emptyOrAbsent(ArchiveStorage raw) throws IOException {
    try {
      return raw.list("").isEmpty();
    } catch (FileNotFoundException e) {
      return true;
    }
  }

  void check(String schedule, Path archive, ArchiveStorage raw, KeptFiles kept,
      Map<Actor, Ended> ended, boolean based) throws IOException {
    for (Map.Entry<Actor, Ended> actor : ended.entrySet()) {
      Ended end = actor.getValue();
      if (end.outcome() == null) {
        failures.add(schedule + ": " + actor.getKey().name() + " ended with an undocumented "
            + "error: " + describe(end.error()));
      }
    }
    checkTakeover(schedule, ended);
    for (String loss : kept.losses()) {
      failures.add(schedule + ": " + loss);
    }
    Map<String, byte[]> before = contents(schedule, raw, "before recovery");
    if (before != null) {
      checkChanges(schedule + ", before recovery", before, ended, false, based);
      if (!before.isEmpty() || based) {
        verify(schedule + ", before recovery", raw);
      }
    }
    try {
      ArchiveWriter.open(place.conf(), place.storage(archive), options(true)).close();
    } catch (FileNotFoundException e) {
      // No archive there (a create that never committed, removed): nothing to recover.
    } catch (NoCommittedGenerationException e) {
      // The same, where the path is an empty directory: on an object store a create's lock,
      // put and deleted after a recovery removed the create, leaves the path's marker.
      if (!emptyOrAbsent(raw)) {
        failures.add(schedule + ": recovery failed: " + describe(e) + "; the path holds "
            + raw.list(""));
        return;
      }
    } catch (IOException | RuntimeException e) {
      failures.add(schedule + ": recovery failed: " + describe(e));
      return;
    }
    Map<String, byte[]> after = contents(schedule, raw, "after recovery");
    if (after != null && (!after.isEmpty() || based)) {
      checkChanges(schedule + ", after recovery", after, ended, true, based);
      verify(schedule + ", after recovery", raw);
      checkNothingLeftOrMissing(schedule + ", after recovery", raw);
    } else if (after != null) {
      checkChanges(schedule + ", after recovery", after, ended, true, based);
    }
  }

  /**
   * A writer that broke the lock holds it rightfully: only a change another actor committed
   * meanwhile may make it fail, never a paused writer it fenced off (whose part names must not
   * meet its own).
   */
  private void checkTakeover(String schedule, Map<Actor, Ended> ended) {
    List<Actor> breakers = ended.keySet().stream().filter(Actor::breaksLock).toList();
    if (breakers.size() != 1) {
      return; // a writer that broke the lock may lose it to the next that does
    }
    Actor breaker = breakers.get(0);
    Ended end = ended.get(breaker);
    // A recovery that removes a create that never committed ends "does not exist" rightly.
    if (!breaker.changes() || end.outcome() == null || end.outcome() == Outcome.SUCCEEDED) {
      return;
    }
    boolean otherMayHaveCommitted = ended.entrySet().stream().anyMatch(e -> e.getKey() != breaker
        && e.getValue().outcome() != null && e.getValue().outcome() != Outcome.FAILED);
    if (!otherMayHaveCommitted) {
      failures.add(schedule + ": " + breaker.name() + " took the lock over and ended "
          + end.outcome().name().toLowerCase() + " (" + describe(end.error()) + "), though no "
          + "other actor committed");
    }
  }

  /**
   * Every member, read back; empty where there is no archive (a create that never committed),
   * null (and a failure) where the archive cannot be read.
   */
  private Map<String, byte[]> contents(String schedule, ArchiveStorage raw, String when) {
    try {
      if (!raw.rootExists() || !raw.list("").contains(Manifest.DIR)
          || raw.list(Manifest.DIR).stream().noneMatch(n -> Manifest.generationOf(n) > 0)) {
        return Map.of();
      }
    } catch (IOException e) {
      failures.add(schedule + ", " + when + ": the archive cannot be listed: " + describe(e));
      return null;
    }
    try (HpfReader reader = HpfReader.open(raw, ReaderOptions.defaults())) {
      Map<String, byte[]> members = new LinkedHashMap<>();
      List<String> names;
      try (var listed = reader.list()) {
        names = listed.toList();
      }
      for (String name : names) {
        members.put(name, reader.get(name));
      }
      return members;
    } catch (IOException | RuntimeException e) {
      failures.add(schedule + ", " + when + ": the archive cannot be read: " + describe(e));
      return null;
    }
  }

  private void checkChanges(String schedule, Map<String, byte[]> members,
      Map<Actor, Ended> ended, boolean settled, boolean based) {
    Set<String> removable = new HashSet<>();
    Map<String, byte[]> known = new LinkedHashMap<>(based ? BASE : Map.of());
    for (Actor actor : ended.keySet()) {
      removable.addAll(actor.deletes());
      known.putAll(actor.adds());
    }
    for (Map.Entry<String, byte[]> member : members.entrySet()) {
      byte[] expected = known.get(member.getKey());
      if (expected == null) {
        failures.add(schedule + ": " + member.getKey() + " appeared from nowhere");
      } else if (!Arrays.equals(expected, member.getValue())) {
        failures.add(schedule + ": " + member.getKey() + " reads back other bytes");
      }
    }
    for (String name : based ? BASE.keySet() : Set.<String>of()) {
      if (!DELETED_BEFORE.contains(name) && !removable.contains(name)
          && !members.containsKey(name)) {
        failures.add(schedule + ": base member " + name + " was lost");
      }
    }
    for (Map.Entry<Actor, Ended> entry : ended.entrySet()) {
      Actor actor = entry.getKey();
      if (!actor.changes() || entry.getValue().outcome() == null) {
        continue;
      }
      int present = 0;
      for (String name : actor.adds().keySet()) {
        present += members.containsKey(name) ? 1 : 0;
      }
      for (String name : actor.deletes()) {
        present += members.containsKey(name) ? 0 : 1;
      }
      int all = actor.adds().size() + actor.deletes().size();
      Outcome outcome = entry.getValue().outcome();
      String said = actor.name() + " " + outcome.name().toLowerCase() + " ("
          + describe(entry.getValue().error()) + ")";
      if (outcome == Outcome.SUCCEEDED && present != all) {
        failures.add(schedule + ": " + said + " but " + (all - present) + " of its " + all
            + " changes are not in the archive");
      } else if (outcome == Outcome.FAILED && present != 0) {
        failures.add(schedule + ": " + said + " but " + present + " of its " + all
            + " changes are in the archive");
      } else if (outcome == Outcome.UNSETTLED && settled && !actor.deletes().isEmpty()
          && present != 0 && present != all) {
        failures.add(schedule + ": " + said + " and recovery left " + present + " of its "
            + all + " changes");
      }
    }
  }

  private void verify(String schedule, ArchiveStorage raw) {
    try {
      ArchiveVerifier.Report report = ArchiveVerifier.verify(raw, ReaderOptions.defaults(),
          bytes -> {});
      if (!report.ok()) {
        failures.add(schedule + ": verify found " + report.problems());
      }
    } catch (IOException | RuntimeException e) {
      failures.add(schedule + ": verify failed: " + describe(e));
    }
  }

  /** After recovery: the directory holds exactly the kept manifests and what they name. */
  private void checkNothingLeftOrMissing(String schedule, ArchiveStorage raw) {
    try {
      Set<String> named = new TreeSet<>();
      for (String file : raw.list(Manifest.DIR)) {
        long generation = Manifest.generationOf(file);
        if (generation <= 0) {
          failures.add(schedule + ": " + Manifest.DIR + "/" + file + " left behind");
          continue;
        }
        named.addAll(StoreCommits.filesOf(raw, generation));
      }
      Set<String> present = new TreeSet<>(raw.list(""));
      present.remove(Manifest.DIR);
      Set<String> left = new TreeSet<>(present);
      left.removeAll(named);
      named.removeAll(present);
      if (!left.isEmpty()) {
        failures.add(schedule + ": unreferenced files left: " + left);
      }
      if (!named.isEmpty()) {
        failures.add(schedule + ": files a kept generation names are missing: " + named);
      }
    } catch (IOException | RuntimeException e) {
      failures.add(schedule + ": listing the archive failed: " + describe(e));
    }
  }

  private static String describe(Throwable error) {
    if (error == null) {
      return "no error";
    }
    String text = error.getClass().getSimpleName() + ": " + error.getMessage();
    return text.length() > 400 ? text.substring(0, 400) + "..." : text;
  }

  // ---- results ----

  int schedules() {
    return schedules;
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  /** Fails with every failure found, each naming its schedule. */
  void assertNoFailures() {
    if (!failures.isEmpty()) {
      throw new AssertionError(failures.size() + " failures in " + schedules + " schedules:\n"
          + failures.stream().limit(40).collect(Collectors.joining("\n")));
    }
  }

  static boolean onObjectStore(ArchiveStorage storage) throws IOException {
    return storage.profile() == StorageProfile.CONDITIONAL_CREATE;
  }

  /** {@code count} members named {@code prefix<i>}, of 100 to 3,000 bytes. */
  static Map<String, byte[]> members(String prefix, int count, long seed) {
    Random random = new Random(seed);
    Map<String, byte[]> members = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      byte[] bytes = new byte[100 + random.nextInt(2900)];
      random.nextBytes(bytes);
      members.put(prefix + i, bytes);
    }
    return members;
  }

  /** Names of {@link #BASE} still there after the base archive's delete. */
  static List<String> liveBase() {
    return BASE.keySet().stream().filter(n -> !DELETED_BEFORE.contains(n))
        .collect(Collectors.toList());
  }
}
