package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.hpf.minicluster.S3Server;
import org.hpf.testing.BucketKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on an archive on s3a:// (a real S3-protocol server): those that read work, and
 * those that write too, the MapReduce build's included, committing by conditional create; where
 * the conditional create is switched off, every write exits with its own code and leaves the
 * bucket and the sources as they were.
 */
@Tag("s3")
class ObjectStoreCommandsTest {
  @TempDir
  static Path dir;
  private static S3Server server;
  private static FileSystem s3;
  private static TreeMap<String, byte[]> files;
  private static Path src;
  /** The server's settings, as an operator's site file would hold them. */
  private static String site;
  private static String archive;

  @BeforeAll
  static void copyAnArchiveToTheStore() throws IOException {
    server = S3Server.start();
    s3 = server.fileSystem();
    src = dir.resolve("src");
    files = TestTrees.write(src, 12, 7);
    Path written = dir.resolve("written.hpf");
    TestTrees.create(src, written);
    archive = server.bucketRoot() + "logs.hpf";
    Configuration local = new Configuration();
    FileUtil.copy(FileSystem.getLocal(local), new org.apache.hadoop.fs.Path(written.toUri()),
        s3, new org.apache.hadoop.fs.Path(archive), false, local);
    site = SiteFiles.write(server.configuration(), dir.resolve("s3-site.xml")).toString();
  }

  @AfterAll
  static void stopServer() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void readingCommandsWork() throws IOException {
    Cli.Result ls = Cli.run("ls", "--conf", site, archive);
    assertEquals(ExitCodes.OK, ls.code(), ls::toString);
    assertEquals(String.join("\n", files.keySet()) + "\n", ls.out());

    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Path out = dir.resolve("got-" + file.getKey().replace('/', '-'));
      Cli.Result get = Cli.run("get", "--conf", site, archive, file.getKey(), "-o",
          out.toString());
      assertEquals(ExitCodes.OK, get.code(), get::toString);
      assertArrayEquals(file.getValue(), Files.readAllBytes(out), file.getKey());
    }
  }

  /** On a store with a conditional create, the writing commands work and commit there. */
  @Test
  void writingCommandsChangeAnArchiveOnTheStore() throws IOException {
    String fresh = server.bucketRoot() + "written-there.hpf";
    Path more = dir.resolve("more");
    TreeMap<String, byte[]> added = new TreeMap<>();
    // Below "extra/": names the archive does not have yet.
    TestTrees.write(more.resolve("extra"), 5, 11)
        .forEach((name, bytes) -> added.put("extra/" + name, bytes));
    TreeMap<String, byte[]> expected = new TreeMap<>(files);
    expected.putAll(added);
    String removed = files.firstKey();
    expected.remove(removed);
    assertRunAndHold(List.of(
        List.of("create", src.toString(), fresh),
        List.of("append", fresh, more.toString()),
        List.of("rm", fresh, removed),
        List.of("compact", "--min-live", "1", fresh),
        List.of("recover", fresh),
        List.of("verify", fresh)), site, fresh, expected);
  }

  /**
   * A create that never committed (its writer paused, its parts published) is no archive: a
   * create there is refused and told to recover; `hpf recover --break-lock` removes what it left,
   * and the create then runs. The paused writer, closing at last, leaves the new archive alone.
   */
  @Test
  void recoverRemovesACreateThatNeverCommitted() throws Exception {
    String fresh = server.bucketRoot() + "never-committed.hpf";
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(fresh);
    org.hpf.internal.write.ArchiveWriter paused = org.hpf.internal.write.ArchiveWriter.create(
        server.configuration(), path, org.hpf.internal.write.WriterOptions.builder()
            .layout(l -> l.withPartSize(1024)).build());
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      paused.add(file.getKey(), file.getValue(), 0);
    }
    assertTrue(BucketKeys.files(s3, path).stream().anyMatch(f -> f.startsWith("part-")));

    Cli.Result refused = Cli.run(withSite(List.of("create", src.toString(), fresh), site));
    assertEquals(ExitCodes.EXISTS, refused.code(), refused::toString);
    assertTrue(refused.stderr().contains("a create that never committed left: hpf recover "
        + "removes it"), refused::toString);

    Cli.Result recovered = Cli.run(withSite(List.of("recover", "--break-lock", fresh), site));
    assertEquals(ExitCodes.OK, recovered.code(), recovered::toString);
    assertTrue(recovered.out().contains("removed what a create that never committed left"),
        recovered::toString);
    assertTrue(!s3.exists(path), "no object left");

    assertRunAndHold(List.of(List.of("create", src.toString(), fresh)), site, fresh, files);
    paused.close();
    assertRunAndHold(List.of(List.of("verify", fresh)), site, fresh, files);
  }

  /**
   * A writer that loses a conditional create (here, of the marker of a lock takeover another
   * process is making) says so in its one line: S3A's warnings about the refused upload are not
   * printed.
   */
  @Test
  void aWriterThatLosesAConditionalCreatePrintsOneLine() throws Exception {
    String copy = copyToStore("lost-takeover.hpf");
    write(copy + "/_lock", deadHolder("append"));
    write(copy + "/" + org.hpf.internal.format.ArchiveLayout.LOCK_TAKEOVER, "");
    try (CapturedLog log = new CapturedLog()) {
      Cli.Result rm = Cli.run("rm", "--conf", site, copy, files.firstKey());
      assertEquals(ExitCodes.LOCKED, rm.code(), rm::toString);
      assertTrue(rm.stderr().startsWith("hpf: ") && rm.stderr().contains(
          " is locked by append by ghost@gateway-3 (pid "), rm::toString);
      assertEquals(1, rm.stderr().lines().count(), rm::toString);
      assertEquals(List.of(), log.libraries(), "the libraries' log");
    }
  }

  /**
   * `hpf recover` says what it did: the dead writer's lock it took over, the uploads it left
   * pending that were aborted, and the change that never committed that was rolled back; once,
   * on stdout, not again in the log.
   */
  @Test
  void recoverSaysWhatItDid() throws Exception {
    String copy = copyToStore("dead-writer.hpf");
    write(copy + "/_lock", deadHolder("append"));
    // What the dead append left: a part it published and a part it was uploading.
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(copy);
    FileUtil.copy(s3, new org.apache.hadoop.fs.Path(root, "part-000000"), s3,
        new org.apache.hadoop.fs.Path(root, "part-000007"), false, server.configuration());
    ((org.apache.hadoop.fs.s3a.S3AFileSystem) s3).getS3AInternals()
        .getAmazonS3Client("a test's pending upload").createMultipartUpload(request -> request
            .bucket(S3Server.BUCKET).key("dead-writer.hpf/part-000008"));
    try (CapturedLog log = new CapturedLog()) {
      Cli.Result recovered = Cli.run("recover", "--conf", site, copy);
      assertEquals(ExitCodes.OK, recovered.code(), recovered::toString);
      String out = recovered.out();
      assertTrue(out.startsWith("recovered " + copy + ": took over the lock of append by "
          + "ghost@gateway-3 (pid "), recovered::toString);
      assertTrue(out.contains("no longer runs on this machine"), recovered::toString);
      assertTrue(out.contains("; aborted 1 upload a writer left pending; "), recovered::toString);
      assertTrue(out.contains("rolled back the unfinished change"), recovered::toString);
      assertEquals(1, out.lines().count(), recovered::toString);
      assertEquals("", recovered.stderr(), recovered::toString);
      assertEquals(List.of(), log.events().stream().filter(e -> e.message() != null
          && (e.message().contains("recovered") || e.message().contains("taking over")))
          .toList(), "logged again");
    }
    assertRunAndHold(List.of(List.of("verify", copy)), site, copy, files);
    assertEquals(List.of(), BucketKeys.files(s3, root).stream()
        .filter(name -> name.equals("part-000007") || name.equals("_lock")).toList());
  }

  /**
   * A reading command opens the archive first and asks whether its path exists only when that
   * fails: `hpf ls` and `hpf get` send one LIST (of `_manifests/`), and `ls` one HEAD (of the
   * names segment), as S3A's statistics count them, not a HEAD and a LIST of the archive's path
   * more. (The default analytics stream's HEADs of the index file and part are its own.)
   */
  @Test
  void aReadingCommandSendsNoRequestBeforeOpening() throws IOException {
    Cli.Result ls = Cli.run("ls", "--conf", site, archive);
    assertEquals(String.join("\n", files.keySet()) + "\n", ls.out(), ls::toString);
    assertEquals(List.of(1L, 1L), listsAndHeads("ls", "--conf", site, archive), "hpf ls");
    Path out = dir.resolve("counted-get");
    assertEquals(List.of(1L, 0L), listsAndHeads("get", "--conf", site, archive,
        files.lastKey(), "-o", out.toString()), "hpf get");
    // As the server sees them, each command with a client of its own, as a process has: the
    // table of OBJECT-STORES.md.
    String[] fresh = {"--conf", site, "-D", "fs.s3a.impl.disable.cache=true"};
    List<String> listing = answered(withArgs("ls", fresh, archive));
    assertEquals("1 LIST, 2 GET, 1 HEAD", requestKinds(listing), listing::toString);
    List<String> get = answered(withArgs("get", fresh, archive, files.lastKey(), "-o",
        dir.resolve("counted-get-2").toString()));
    assertEquals("1 LIST, 3 GET, 2 HEAD", requestKinds(get), get::toString);
    assertArrayEquals(files.get(files.lastKey()), Files.readAllBytes(out));

    Cli.Result missing = Cli.run("ls", "--conf", site, server.bucketRoot() + "missing.hpf");
    assertEquals(ExitCodes.NOT_FOUND, missing.code(), missing::toString);
    assertEquals("hpf: archive does not exist: " + server.bucketRoot() + "missing.hpf\n",
        missing.stderr());
  }

  /**
   * A writing command opens its writer before it asks anything about the archive's path, and
   * the writer asks whether the path exists only when it is no archive: no command sends a HEAD
   * of the archive's path or an existence LIST of it or of its {@code _manifests/} before it
   * takes the lock, and the lock is taken by its conditional PUT alone. Each command's requests, as the server sees them with a client of its own:
   * the table of OBJECT-STORES.md.
   */
  @Test
  void aWritingCommandSendsNoRequestBeforeOpening() throws Exception {
    String[] fresh = {"--conf", site, "-D", "fs.s3a.impl.disable.cache=true", "-q"};
    String made = server.bucketRoot() + "counted-writes.hpf";
    String key = S3Server.BUCKET + "/counted-writes.hpf";
    Path more = dir.resolve("counted-more");
    TestTrees.write(more.resolve("counted"), 2, 5);
    Map<String, String[]> commands = new java.util.LinkedHashMap<>();
    // One merge thread: the parts written, and so the PUTs, do not depend on scheduling.
    commands.put("create", withArgs("create", fresh, "--threads", "1", src.toString(), made));
    commands.put("append", withArgs("append", fresh, "--threads", "1", made,
        more.toString()));
    commands.put("rm", withArgs("rm", fresh, made, files.firstKey()));
    commands.put("compact", withArgs("compact", fresh, "--min-live", "1", made));
    commands.put("recover", withArgs("recover", fresh, made));
    Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put("create", "12 LIST, 2 GET, 9 HEAD, 6 PUT, 1 DELETE");
    expected.put("append", "13 LIST, 5 GET, 7 HEAD, 5 PUT, 1 DELETE");
    expected.put("rm", "17 LIST, 10 GET, 17 HEAD, 6 PUT, 4 DELETE");
    expected.put("compact", "24 LIST, 8 GET, 13 HEAD, 6 PUT, 7 DELETE");
    expected.put("recover", "9 LIST, 4 GET, 5 HEAD, 1 PUT, 1 DELETE");
    Map<String, String> sent = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, String[]> command : commands.entrySet()) {
      List<String> requests = answered(command.getValue());
      List<String> probes = probesBeforeLock(requests, key);
      // A create asks whether its path is free (a HEAD and a LIST), then S3A's mkdirs of
      // _manifests/ asks about it and its parent (two HEADs and two LISTs).
      assertEquals(command.getKey().equals("create") ? 6 : 0, probes.size(),
          () -> command.getKey() + ": " + probes);
      sent.put(command.getKey(), requestKinds(requests));
    }
    assertEquals(expected, sent);
  }

  /**
   * The commands that use an archive without a writer, delete-sources and cache, open it before
   * they ask anything about its path: no HEAD of it, no existence LIST of it or of its
   * {@code _manifests/}. A path that is no archive is still told apart from one that is missing.
   */
  @Test
  void aCommandWithoutAWriterSendsNoProbeBeforeOpening() throws Exception {
    String[] fresh = {"--conf", site, "-D", "fs.s3a.impl.disable.cache=true", "-q"};
    Path sources = dir.resolve("sources-to-remove");
    TestTrees.write(sources, 4, 3);
    String made = server.bucketRoot() + "sources-removed.hpf";
    // Counted too: every request of the create is in the log before the next command's.
    answered(withArgs("create", fresh, sources.toString(), made));
    Map<String, String[]> commands = new java.util.LinkedHashMap<>();
    commands.put("cache", withArgs("cache", fresh, made));
    commands.put("delete-sources", withArgs("delete-sources", fresh, made,
        sources.toString()));
    Map<String, String> expected = new java.util.LinkedHashMap<>();
    // The reader's open (a LIST of _manifests/, the manifest), and for the removal the
    // archive's status (who may read it), the index file and the parts it reads back.
    expected.put("cache", "1 LIST, 1 GET");
    expected.put("delete-sources", "2 LIST, 4 GET, 4 HEAD");
    Map<String, String> sent = new java.util.LinkedHashMap<>();
    Map<String, List<String>> probes = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, String[]> command : commands.entrySet()) {
      List<String> requests = answered(command.getValue());
      probes.put(command.getKey(), probesBeforeOpening(requests,
          S3Server.BUCKET + "/sources-removed.hpf"));
      sent.put(command.getKey(), requestKinds(requests));
    }
    assertEquals(Map.of("cache", List.of(), "delete-sources", List.of()), probes);
    assertEquals(expected, sent);
    assertEquals(Map.of(), TestTrees.files(sources), "the sources, deleted");

    String missing = server.bucketRoot() + "no-archive.hpf";
    String plain = server.bucketRoot() + "plain-directory";
    write(plain + "/file.txt", "not an archive");
    for (String command : commands.keySet()) {
      Cli.Result gone = Cli.run(withSite(command.equals("cache") ? List.of(command, missing)
          : List.of(command, missing, sources.toString()), site));
      assertEquals(ExitCodes.NOT_FOUND, gone.code(), gone::toString);
      assertEquals("hpf: archive does not exist: " + missing + "\n", gone.stderr(), command);
      Cli.Result other = Cli.run(withSite(command.equals("cache") ? List.of(command, plain)
          : List.of(command, plain, sources.toString()), site));
      assertEquals(ExitCodes.NOT_FOUND, other.code(), other::toString);
      assertEquals("hpf: " + plain + " is not an hpf archive: no _manifests directory\n",
          other.stderr(), command);
    }
  }

  /**
   * The requests before the lock's PUT that ask whether {@code key} (an archive's path), its
   * {@code _manifests/} or its lock exists: a HEAD of either, a LIST of at most 2 keys below
   * either (S3A's existence and directory questions).
   */
  private static List<String> probesBeforeLock(List<String> requests, String key) {
    return probesBefore(requests, key, "PUT /" + key + "/_lock");
  }

  /**
   * The requests before the reader's first, its LIST of {@code _manifests/}, that ask whether
   * {@code key} or its {@code _manifests/} exists (as {@link #probesBeforeLock} tells them).
   */
  private static List<String> probesBeforeOpening(List<String> requests, String key) {
    String prefix = key.substring(key.indexOf('/') + 1).replace("/", "%2F");
    return probesBefore(requests, key, "GET /" + S3Server.BUCKET
        + "?list-type=2&delimiter=%2F&max-keys=5000&prefix=" + prefix + "%2F_manifests%2F ");
  }

  private static List<String> probesBefore(List<String> requests, String key, String stop) {
    List<String> probes = new java.util.ArrayList<>();
    String prefix = key.substring(key.indexOf('/') + 1);
    for (String line : requests) {
      if (line.startsWith(stop)) {
        break;
      }
      for (String below : List.of("", "/_manifests", "/_lock")) {
        // No query: the log shows "-".
        boolean head = line.startsWith("HEAD /" + key + below + "- ");
        boolean existence = line.contains("max-keys=2&")
            && line.endsWith("prefix=" + prefix + below.replace("/", "%2F") + "%2F 200");
        if (head || existence) {
          probes.add(line);
        }
      }
    }
    return probes;
  }

  /** The LISTs and HEADs the command {@code args} sends, counted by the client it uses. */
  private static List<Long> listsAndHeads(String... args) throws IOException {
    // The client the commands use: Hadoop caches one per bucket and user.
    org.apache.hadoop.fs.s3a.S3AFileSystem shared = (org.apache.hadoop.fs.s3a.S3AFileSystem)
        FileSystem.get(server.bucketRoot().toUri(), server.configuration());
    Map<String, Long> before = Map.copyOf(shared.getIOStatistics().counters());
    Cli.Result r = Cli.run(args);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    Map<String, Long> after = shared.getIOStatistics().counters();
    List<Long> sent = new java.util.ArrayList<>();
    for (String key : List.of("object_list_request", "object_metadata_request")) {
      sent.add(after.getOrDefault(key, 0L) - before.getOrDefault(key, 0L));
    }
    return sent;
  }

  /** {@code command}, then {@code options}, then {@code args}. */
  private static String[] withArgs(String command, String[] options, String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(command));
    all.addAll(List.of(options));
    all.addAll(List.of(args));
    return all.toArray(new String[0]);
  }

  /** The requests the server answered for the command {@code args}, as its log shows them. */
  private static List<String> answered(String... args) throws IOException {
    int before = server.requests().size();
    Cli.Result r = Cli.run(args);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    // One more request: the server answers one at a time, so every earlier one is logged then.
    s3.exists(new org.apache.hadoop.fs.Path(server.bucketRoot(), "flush-marker"));
    List<String> all = server.requests();
    return all.subList(before, all.size()).stream()
        .filter(line -> !line.contains("flush-marker")).toList();
  }

  /** Requests by kind, as OBJECT-STORES.md counts them: "1 LIST, 2 GET, 1 HEAD". */
  private static String requestKinds(List<String> requests) {
    Map<String, Long> kinds = new java.util.LinkedHashMap<>();
    for (String kind : List.of("LIST", "GET", "HEAD", "PUT", "DELETE", "POST")) {
      long n = requests.stream().filter(line -> kind.equals(kindOf(line))).count();
      if (n > 0) {
        kinds.put(kind, n);
      }
    }
    return kinds.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** LIST for a GET of a bucket with a list query, else the request's method. */
  private static String kindOf(String line) {
    String method = line.substring(0, line.indexOf(' '));
    return "GET".equals(method) && line.contains("list-type=") ? "LIST" : method;
  }

  /** A bucket that does not exist is not found, as a missing archive is: one line, exit 3. */
  @Test
  void aBucketThatDoesNotExistIsNotFound() {
    for (List<String> command : List.of(
        List.of("ls", "s3a://no-such-bucket/logs.hpf"),
        List.of("create", src.toString(), "s3a://no-such-bucket/logs.hpf"))) {
      Cli.Result r = Cli.run(withSite(command, site));
      assertEquals(ExitCodes.NOT_FOUND, r.code(), () -> command + ": " + r);
      assertTrue(r.stderr().startsWith("hpf: bucket no-such-bucket does not exist "),
          () -> command + ": " + r);
      assertEquals(1, r.stderr().lines().count(), () -> command + ": " + r);
    }
  }

  /** A request the store refuses names the bucket and where the credentials came from. */
  @Test
  void accessDeniedNamesTheBucketAndTheCredentials() {
    Cli.Result r = Cli.run("ls", "--conf", site, "-D", "fs.s3a.impl.disable.cache=true",
        "-D", "fs.s3a.access.key=", "-D", "fs.s3a.secret.key=", archive);
    assertEquals(ExitCodes.ERROR, r.code(), r::toString);
    assertTrue(r.stderr().startsWith("hpf: access denied to bucket " + S3Server.BUCKET
        + " with the credentials of SimpleAWSCredentialsProvider: "), r::toString);
    assertEquals(1, r.stderr().lines().count(), r::toString);
  }

  /** A copy of the archive at {@code name} in the bucket; returns its path. */
  private static String copyToStore(String name) throws IOException {
    String copy = server.bucketRoot() + name;
    FileUtil.copy(s3, new org.apache.hadoop.fs.Path(archive), s3,
        new org.apache.hadoop.fs.Path(copy), false, server.configuration());
    return copy;
  }

  private static void write(String path, String text) throws IOException {
    try (OutputStream out = s3.create(new org.apache.hadoop.fs.Path(path), true)) {
      out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /**
   * The lock line of a writer that is gone: a process of this machine that has ended, in this
   * boot and pid namespace (as a writer records them), so that a writer may take its lock over.
   */
  private static String deadHolder(String operation) throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    String pidns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    return operation + " by ghost@gateway-3 (pid " + gone.pid() + ") since "
        + "2026-01-05T08:00:00Z; token 4f1c; boot " + boot + "; pidns " + pidns + "\n";
  }

  /**
   * Each command succeeds; then the archive lists exactly {@code expected}, and its last
   * member reads back.
   */
  private static void assertRunAndHold(List<List<String>> commands, String siteFile,
      String archive, TreeMap<String, byte[]> expected) throws IOException {
    for (List<String> command : commands) {
      Cli.Result r = Cli.run(withSite(command, siteFile));
      assertEquals(ExitCodes.OK, r.code(), () -> command + ": " + r);
    }
    Cli.Result ls = Cli.run("ls", "--conf", siteFile, archive);
    assertEquals(String.join("\n", expected.keySet()) + "\n", ls.out(), ls::toString);
    String member = expected.lastKey();
    Path out = Files.createTempDirectory(dir, "got-").resolve("member");
    Cli.Result get = Cli.run("get", "--conf", siteFile, archive, member, "-o", out.toString());
    assertEquals(ExitCodes.OK, get.code(), get::toString);
    assertArrayEquals(expected.get(member), Files.readAllBytes(out));
  }

  /**
   * The MapReduce build (on the local job runner) creates and appends there too: its tasks write
   * their parts in place, and the job commits by conditional create.
   */
  @Test
  void theMapReduceBuildWritesThereToo() throws IOException {
    Configuration conf = server.configuration();
    conf.set("mapreduce.framework.name", "local");
    Path jobs = dir.resolve("jobs");
    conf.set("mapreduce.jobtracker.staging.root.dir", jobs.resolve("staging").toString());
    conf.set("hadoop.tmp.dir", jobs.resolve("tmp").toString());
    conf.set("mapreduce.cluster.local.dir", jobs.resolve("local").toString());
    conf.setInt("mapreduce.client.completion.pollinterval", 20);
    String jobSite = SiteFiles.write(conf, dir.resolve("s3-job-site.xml")).toString();
    String built = server.bucketRoot() + "built-by-a-job.hpf";
    Path more = dir.resolve("more-by-a-job");
    TreeMap<String, byte[]> expected = new TreeMap<>(files);
    TestTrees.write(more.resolve("job"), 4, 13)
        .forEach((name, bytes) -> expected.put("job/" + name, bytes));
    assertRunAndHold(List.of(
        List.of("create", "--mapreduce", src.toString(), built),
        List.of("append", "--mapreduce", built, more.toString()),
        List.of("verify", built)), jobSite, built, expected);
  }

  /** Without a conditional create, every writing command is refused and writes nothing. */
  @Test
  void writingCommandsAreRefusedWhereConditionalCreateIsOff() throws IOException {
    Configuration conf = server.configuration();
    conf.setBoolean("fs.s3a.create.conditional.enabled", false);
    // Its own client, not the one the other tests' commands left in Hadoop's cache.
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    String unconditional = SiteFiles.write(conf, dir.resolve("s3-unconditional-site.xml")).toString();
    String member = files.firstKey();
    String fresh = server.bucketRoot() + "fresh.hpf";
    assertRefused(unconditional, "no conditional create", List.of(
        List.of("create", src.toString(), fresh),
        List.of("create", "--delete-sources", src.toString(), fresh),
        List.of("create", "--mapreduce", src.toString(), fresh),
        List.of("append", "--replace", archive, src.toString()),
        List.of("append", "--mapreduce", archive, src.toString()),
        List.of("rm", archive, member),
        List.of("compact", "--min-live", "1", archive),
        List.of("recover", archive),
        List.of("delete-sources", archive, src.toString())));
  }

  /**
   * Each command exits with the refusal's code and a message with {@code reason}, and leaves the
   * bucket and the sources as they were.
   */
  private static void assertRefused(String siteFile, String reason, List<List<String>> commands)
      throws IOException {
    SortedSet<String> before = BucketKeys.below(s3, server.bucketRoot());
    for (List<String> command : commands) {
      List<String> args = new java.util.ArrayList<>(command);
      args.add(1, "-q");
      Cli.Result r = Cli.run(withSite(args, siteFile));
      assertEquals(ExitCodes.UNSUPPORTED_STORE, r.code(), () -> command + ": " + r);
      String err = r.stderr();
      assertTrue(err.startsWith("hpf: ") && err.contains(" is refused: the store at "
          + server.bucketRoot()) && err.contains(reason), () -> command + ": " + r);
      assertEquals(before, BucketKeys.below(s3, server.bucketRoot()), command::toString);
      assertEquals(files.size(), TestTrees.files(src).size(), command::toString);
    }
  }

  /** {@code command} with {@code --conf siteFile} after its name. */
  private static String[] withSite(List<String> command, String siteFile) {
    List<String> args = new java.util.ArrayList<>(command);
    args.addAll(1, List.of("--conf", siteFile));
    return args.toArray(new String[0]);
  }
}
