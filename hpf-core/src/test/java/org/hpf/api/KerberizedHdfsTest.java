package org.hpf.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.hpf.ArchiveReader;
import org.hpf.ArchiveWriter;
import org.hpf.CommitResult;
import org.hpf.HpfArchive;
import org.hpf.MemberIterator;
import org.hpf.WriteSettings;
import org.hpf.fs.LocalJobs;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.io.HadoopStorage;
import org.hpf.internal.read.ArchiveVerifier;
import org.hpf.internal.read.ReaderOptions;
import org.hpf.internal.write.WriterOptions;
import org.hpf.testing.SecureMiniDfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The library on a Kerberized HDFS (block access tokens, SASL data transfer, permissions), as an
 * end user logged in from a keytab: every operation, cache pinning without rights to the pool,
 * and the delegation tokens a job reading {@code hpf://} and an archive job need.
 */
@Tag("hdfs")
class KerberizedHdfsTest {
  private static SecureMiniDfs dfs;
  private static UserGroupInformation alice;

  @BeforeAll
  static void start() throws Exception {
    dfs = SecureMiniDfs.start(KerberizedHdfsTest.class);
    alice = dfs.loginUser();
  }

  @AfterAll
  static void stop() {
    if (dfs != null) {
      dfs.close();
    }
  }

  private static <T> T asAlice(PrivilegedExceptionAction<T> action) throws Exception {
    return alice.doAs(action);
  }

  private static Configuration conf() {
    Configuration conf = dfs.clientConfiguration();
    conf.setBoolean(WriteSettings.PIN_INDEX_KEY, false);
    return conf;
  }

  @Test
  void aKeytabUserCreatesAppendsReadsListsVerifiesDeletesAndCompacts() throws Exception {
    Path archive = new Path(dfs.home(), "logs.hpf");
    asAlice(() -> {
      Configuration conf = conf();
      try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
        for (int i = 0; i < 20; i++) {
          writer.add("logs/" + i, ("line " + i + "\n").repeat(50).getBytes(UTF_8));
        }
        assertEquals(20, writer.commit().fileCount());
      }
      try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
        writer.add("logs/new", "new".getBytes(UTF_8));
        writer.commit();
      }
      assertEquals(21, names(archive, conf).size());
      assertVerified(archive, conf);
      try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
        for (int i = 0; i < 15; i++) {
          writer.delete("logs/" + i);
        }
        writer.commit();
      }
      try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
        writer.compact(1.0);
        writer.commit();
      }
      List<String> names = names(archive, conf);
      assertEquals(6, names.size(), names::toString);
      assertFalse(names.contains("logs/3"));
      try (ArchiveReader reader = HpfArchive.openReader(archive, conf)) {
        assertArrayEquals("line 17\n".repeat(50).getBytes(UTF_8), reader.get("logs/17"));
        assertArrayEquals("new".getBytes(UTF_8), reader.get("logs/new"));
      }
      assertVerified(archive, conf);
      FileSystem fs = archive.getFileSystem(conf);
      for (FileStatus file : fs.listStatus(archive)) {
        assertEquals(SecureMiniDfs.USER, file.getOwner(), file.getPath().toString());
      }
      return null;
    });
  }

  @Test
  void pinningWithoutRightsToTheCachePoolIsReportedNotFatal() throws Exception {
    dfs.asSuperuser(fs -> {
      fs.addCachePool(new CachePoolInfo("admins-only").setOwnerName("hdfs")
          .setGroupName("hdfs").setMode(new FsPermission((short) 0700)));
      return null;
    });
    Path archive = new Path(dfs.home(), "pinned.hpf");
    CommitResult result = asAlice(() -> {
      Configuration conf = conf();
      conf.setBoolean(WriteSettings.PIN_INDEX_KEY, true);
      conf.set(WriteSettings.CACHE_POOL_KEY, "admins-only");
      try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
        writer.add("a", "a".getBytes(UTF_8));
        return writer.commit();
      }
    });
    assertEquals(1, result.fileCount());
    assertTrue(result.hdfs().contains("user alice may not add cache directives to pool"
        + " 'admins-only'"), result.hdfs());
    // Nor may alice create a pool: that is the superuser's.
    CommitResult noPool = asAlice(() -> {
      Configuration conf = conf();
      conf.setBoolean(WriteSettings.PIN_INDEX_KEY, true);
      conf.set(WriteSettings.CACHE_POOL_KEY, "missing");
      try (ArchiveWriter writer = HpfArchive.openWriter(archive, conf)) {
        writer.add("b", "b".getBytes(UTF_8));
        return writer.commit();
      }
    });
    assertEquals(2, noPool.fileCount());
    assertTrue(noPool.hdfs().contains("may not create"), noPool.hdfs());
  }

  @Test
  void aJobReadingHpfPathsGetsTheDelegationTokenOfTheFileSystemBeneath() throws Exception {
    Path archive = new Path(dfs.home(), "job-input.hpf");
    Credentials credentials = asAlice(() -> {
      Configuration conf = conf();
      try (ArchiveWriter writer = HpfArchive.create(archive, conf)) {
        writer.add("x", "x".getBytes(UTF_8));
        writer.commit();
      }
      // The renewer a job names: the ResourceManager's principal.
      conf.set("yarn.resourcemanager.principal", dfs.hdfsPrincipal());
      Credentials collected = new Credentials();
      Path inArchive = new Path("hpf://hdfs-" + dfs.cluster().getNameNode().getHostAndPort()
          + archive.toUri().getPath() + "/x");
      TokenCache.obtainTokensForNamenodes(collected, new Path[] {inArchive}, conf);
      return collected;
    });
    assertEquals(List.of(new Text("HDFS_DELEGATION_TOKEN")), kinds(credentials));
  }

  @Test
  void anArchiveJobCollectsTokensForTheSourcesAndTheArchive() throws Exception {
    Path sources = new Path(dfs.home(), "job-sources");
    Path archive = new Path(dfs.home(), "by-job.hpf");
    AtomicReference<Job> submitted = new AtomicReference<>();
    asAlice(() -> {
      // The job's staging directory is on the local file system: submission itself collects
      // no HDFS token, so any the job holds is for its sources and archive.
      Configuration conf = LocalJobs.configure(conf());
      conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "file:///");
      conf.set("yarn.resourcemanager.principal", dfs.hdfsPrincipal());
      FileSystem fs = sources.getFileSystem(conf);
      for (String name : List.of("a", "b")) {
        try (FSDataOutputStream out = fs.create(new Path(sources, name))) {
          out.write(name.getBytes(UTF_8));
        }
      }
      JobDriver.run(conf, List.of(sources), archive, false,
          WriterOptions.builder().settings(s -> s.threads(1)).build(), submitted::set);
      assertEquals(2, names(archive, conf).size());
      return null;
    });
    assertEquals(List.of(new Text("HDFS_DELEGATION_TOKEN")),
        kinds(submitted.get().getCredentials()));
  }

  private static List<Text> kinds(Credentials credentials) {
    List<Text> kinds = new ArrayList<>();
    for (Token<?> token : credentials.getAllTokens()) {
      kinds.add(token.getKind());
    }
    return kinds;
  }

  private static List<String> names(Path archive, Configuration conf) throws Exception {
    List<String> names = new ArrayList<>();
    try (ArchiveReader reader = HpfArchive.openReader(archive, conf);
        MemberIterator members = reader.list("")) {
      while (members.hasNext()) {
        names.add(members.next().name());
      }
    }
    return names;
  }

  private static void assertVerified(Path archive, Configuration conf) throws Exception {
    ArchiveVerifier.Report report = ArchiveVerifier.verify(
        new HadoopStorage(archive.getFileSystem(conf), archive, (short) 0),
        ReaderOptions.defaults(), bytes -> { });
    assertTrue(report.ok(), report.problems().toString());
  }
}
