package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.security.SaslRpcServer;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.testing.SecureMiniDfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on a Kerberized HDFS, configured as a cluster's clients are (a site file with
 * {@code --conf}): logged in from a keytab with {@code --principal} and {@code --keytab}, or
 * from a ticket cache; and what a user without credentials is told.
 */
@Tag("hdfs")
class KerberizedCliTest {
  private static SecureMiniDfs dfs;
  private static String site;

  @TempDir
  static Path shared;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws Exception {
    dfs = SecureMiniDfs.start(KerberizedCliTest.class);
    site = dfs.writeClientSite(shared.resolve("hdfs-site.xml").toFile()).getPath();
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.close();
    }
  }

  /** {@code hpf <command> --conf <site> [login] <rest>}. */
  private static Cli.Result run(List<String> login, String command, String... rest) {
    List<String> all = new ArrayList<>(List.of(command, "--conf", site));
    all.addAll(login);
    all.addAll(List.of(rest));
    return Cli.run(all.toArray(new String[0]));
  }

  private static List<String> keytab() {
    return List.of("--principal", dfs.userPrincipal(), "--keytab", dfs.userKeytab().getPath());
  }

  private static Cli.Result ok(List<String> login, String command, String... rest) {
    Cli.Result r = run(login, command, rest);
    assertEquals(ExitCodes.OK, r.code(), r::toString);
    return r;
  }

  @Test
  void everyCommandRunsAsAKeytabPrincipal() throws Exception {
    TreeMap<String, byte[]> files = TestTrees.write(dir.resolve("src"), 30, 7);
    String archive = dfs.home() + "/logs.hpf";
    List<String> login = keytab();
    ok(login, "create", "--no-cache", dir.resolve("src").toUri().toString(), archive);
    TestTrees.write(dir.resolve("more"), Map.of("new/x.txt",
        "x".getBytes(StandardCharsets.UTF_8)));
    ok(login, "append", "--no-cache", archive, dir.resolve("more").toUri().toString());
    String first = files.firstKey();
    Cli.Result got = ok(login, "get", archive, first, "-o", "-");
    assertArrayEquals(files.get(first), got.stdout());
    List<String> names = ok(login, "ls", archive).out().lines().toList();
    assertEquals(31, names.size(), names::toString);
    ok(login, "verify", archive);
    ok(login, "rm", "--no-cache", archive, first);
    ok(login, "compact", "--no-cache", "--min-live", "1", archive);
    assertFalse(ok(login, "ls", archive).out().lines().toList().contains(first));
    assertTrue(ok(login, "verify", archive).out().startsWith("verified"));
  }

  @Test
  void theTicketCacheServesWhenKerberosIsConfigured() throws Exception {
    File cache = dir.resolve("krb5cc").toFile();
    dfs.kinit(cache);
    String archive = dfs.home() + "/from-cache.hpf";
    Files.createDirectories(dir.resolve("src"));
    Files.writeString(dir.resolve("src/a.txt"), "a");
    List<String> ticketCache = List.of(
        "-D", "hadoop.security.authentication=kerberos",
        "-D", "hadoop.security.kerberos.ticket.cache.path=" + cache);
    ok(ticketCache, "create", "--no-cache", dir.resolve("src").toUri().toString(), archive);
    assertEquals(List.of("a.txt"), ok(ticketCache, "ls", archive).out().lines().toList());
  }

  @Test
  void aUserWithoutCredentialsIsToldToKinitInOneLine() throws Exception {
    String archive = dfs.home() + "/anything.hpf";
    // What a login without a ticket is: a Kerberos user with no credentials.
    UserGroupInformation noTicket = UserGroupInformation.createRemoteUser("nobody",
        SaslRpcServer.AuthMethod.KERBEROS);
    Cli.Result r = noTicket.doAs((PrivilegedAction<Cli.Result>) () ->
        run(List.of(), "ls", archive));
    assertEquals(ExitCodes.ERROR, r.code(), r::toString);
    String nameNode = dfs.cluster().getURI().toString();
    assertEquals("hpf: " + nameNode + " requires Kerberos and this user has no valid ticket:"
        + " run kinit, or pass --principal and --keytab\n", r.stderr(), r::toString);

    Cli.Result verbose = noTicket.doAs((PrivilegedAction<Cli.Result>) () ->
        run(List.of("--verbose"), "ls", archive));
    assertTrue(verbose.stderr().contains("\tat org.apache.hadoop"), verbose::toString);
  }

  @Test
  void keytabOptionsGoTogether() {
    Cli.Result r = run(List.of("--principal", dfs.userPrincipal()), "ls",
        dfs.home() + "/x.hpf");
    assertEquals(ExitCodes.USAGE, r.code(), r::toString);
    assertTrue(r.stderr().startsWith("hpf: --principal and --keytab go together"),
        r::toString);
  }

  @Test
  void pinningWithoutRightsToThePoolIsReportedNotFatal() throws Exception {
    dfs.asSuperuser(fs -> {
      fs.addCachePool(new CachePoolInfo("admins-only").setOwnerName("hdfs")
          .setGroupName("hdfs").setMode(new FsPermission((short) 0700)));
      return null;
    });
    Files.createDirectories(dir.resolve("src"));
    Files.writeString(dir.resolve("src/a.txt"), "a");
    String archive = dfs.home() + "/pinned.hpf";
    List<String> login = keytab();
    // No progress lines, however slow the machine: stderr must hold the notice alone.
    Cli.Result created = ok(login, "create", "--progress-interval", Cli.NO_PROGRESS, "--cache-pool",
        "admins-only",
        dir.resolve("src").toUri().toString(), archive);
    // Said once, as a warning, in one line (no server stack trace); the summary points to it.
    String notice = "user alice may not add cache directives to pool 'admins-only'";
    assertTrue(created.stderr().contains("hpf: warning: " + notice), created::toString);
    assertEquals(1, (created.out() + created.stderr()).split(java.util.regex.Pattern.quote(
        "may not add cache directives"), -1).length - 1, created::toString);
    assertTrue(created.out().contains("cache pinning skipped (see the warning)"),
        created::toString);
    assertTrue(created.stderr().lines().allMatch(l -> l.startsWith("hpf: ")),
        created::toString);
    Files.createDirectories(dir.resolve("later"));
    Files.writeString(dir.resolve("later/b.txt"), "b");
    Cli.Result quiet = ok(login, "append", "-q", "--cache-pool", "admins-only", archive,
        dir.resolve("later").toUri().toString());
    assertEquals("", quiet.stderr(), quiet::toString);
    // Asked for explicitly, pinning that cannot happen is the command's error: one line.
    Cli.Result pin = run(login, "cache", "--progress-interval", Cli.NO_PROGRESS, "--pin",
        "--cache-pool", "admins-only", archive);
    assertEquals(ExitCodes.ERROR, pin.code(), pin::toString);
    assertTrue(pin.stderr().startsWith("hpf: cache pinning failed: user alice may not add"),
        pin::toString);
    assertEquals(1, pin.stderr().lines().count(), pin::toString);
    ok(login, "cache", "--status", "--cache-pool", "admins-only", archive);
  }
}
