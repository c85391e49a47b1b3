package org.hpf.bench.experiments;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.bench.BenchCluster;
import org.hpf.bench.BenchCluster.NameNodeCount;
import org.hpf.internal.admin.OwnerSplit;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What keeping every user's access costs the NameNode: the same files of several owners, each
 * in a home only its owner may read, as plain files, as one archive (which only its maker may
 * read: the owners lose access, so hpf refuses it without {@code --allow-access-loss}) and as one
 * archive per owner ({@code hpf create --split-by-owner}), counted from the NameNode.
 */
@Command(name = "owners", mixinStandardHelpOptions = true,
    description = "NameNode objects of many owners' files: plain, one archive, one archive per"
        + " owner (--split-by-owner).")
public final class OwnersSuite extends Experiment {
  @Option(names = "--files", defaultValue = "100000",
      description = "Files in all, shared evenly by the owners (default: ${DEFAULT-VALUE}).")
  public int files = 100_000;

  @Option(names = "--owners", defaultValue = "3",
      description = "Owners, each with a home of mode 0700 (default: ${DEFAULT-VALUE}).")
  public int owners = 3;

  @Option(names = "--file-bytes", defaultValue = "2048",
      description = "Largest file size; sizes are uniform from 1 (default: ${DEFAULT-VALUE}).")
  public int fileBytes = 2048;

  /** Files per directory in a home, as in a day's directory of uploads. */
  private static final int PER_DIRECTORY = 1000;

  @Override
  public String name() {
    return "owners";
  }

  @Override
  public ExperimentResult run(ExperimentContext context) throws Exception {
    BenchCluster cluster = context.cluster(context.options.cluster.dataNodes);
    ExperimentResult r = begin(context, cluster, "NameNode objects of " + owners
        + " owners' files, each keeping access to their own", "files", "NameNode objects",
        false, Map.of("files", files, "owners", owners, "fileBytes", fileBytes));
    Path base = context.dir(cluster, "owners");
    Path homes = new Path(base, "user");
    List<String> users = new ArrayList<>();
    for (int i = 0; i < owners; i++) {
      users.add("owner" + i);
    }
    long start = System.nanoTime();
    writeHomes(cluster, homes, users, context.options.cluster.seed);
    context.log.printf(Locale.ROOT, "  wrote %,d files of %d owners in %.1f s%n", files, owners,
        (System.nanoTime() - start) / 1e9);
    NameNodeCount plain = cluster.count(homes);
    add(r, context, "plain files", plain, plain);

    Configuration conf = cluster.conf();
    WriterOptions.Builder options = WriterOptions.builder().settings(s -> s.threads(2));
    Path one = new Path(base, "one.hpf");
    ArchiveCreator.create(conf, one, List.of(homes), options.settings(s -> s.allowAccessLoss(true))
        .build());
    NameNodeCount oneArchive = cluster.count(one);
    add(r, context, "one archive (the owners lose access)", oneArchive, plain);

    Path split = new Path(base, "archives");
    options.settings(s -> s.allowAccessLoss(false));
    for (OwnerSplit.Planned planned : OwnerSplit.plan(conf, List.of(homes), split,
        org.hpf.SymlinkPolicy.SKIP)) {
      ArchiveCreator.create(conf, planned.archive(), planned.roots(),
          options.owner(planned.owner()).build());
      OwnerSplit.giveTo(conf, planned);
    }
    NameNodeCount perOwner = cluster.count(split);
    add(r, context, "one archive per owner (--split-by-owner)", perOwner, plain);
    r.compare("NameNode objects of the plain files ÷ of one archive per owner", null,
        (double) plain.objects() / perOwner.objects(), "not in the studies");
    r.compare("NameNode objects of one archive per owner ÷ of one archive", null,
        (double) perOwner.objects() / oneArchive.objects(), "not in the studies");
    r.notes.add("Objects are inodes (files and directories) and blocks, as the NameNode holds"
        + " them; the split's count includes the directory that holds the archives.");
    r.notes.add("What the owners' archives show to other users: the names of the archives"
        + " (<owner>.hpf) and their owners, modes and times in a listing of their directory;"
        + " not their files, sizes, member counts or names.");
    cluster.fs().delete(base, true);
    return r;
  }

  private void add(ExperimentResult r, ExperimentContext context, String series,
      NameNodeCount c, NameNodeCount plain) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("files", c.files());
    details.put("directories", c.directories());
    details.put("blocks", c.blocks());
    details.put("ofPlain", (double) c.objects() / plain.objects());
    r.add("NameNode objects", series, files, String.format(Locale.ROOT, "%,d files", files),
        List.of((double) c.objects()), details);
    context.log.printf(Locale.ROOT, "  %-44s %,9d files %,7d dirs %,9d blocks = %,9d objects"
        + " (1/%,.0f of plain)%n", series, c.files(), c.directories(), c.blocks(), c.objects(),
        (double) plain.objects() / c.objects());
  }

  /** Each owner writes their share of the files into a home of their own, mode 0700. */
  private void writeHomes(BenchCluster cluster, Path homes, List<String> users, long seed)
      throws Exception {
    FileSystem admin = cluster.fs();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<FileSystem> clients = new ArrayList<>();
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int u = 0; u < users.size(); u++) {
        String user = users.get(u);
        Path home = new Path(homes, user);
        admin.mkdirs(home);
        admin.setOwner(home, user, user);
        admin.setPermission(home, new FsPermission((short) 0700));
        UserGroupInformation login = UserGroupInformation.createRemoteUser(user);
        FileSystem fs = login.doAs((PrivilegedExceptionAction<FileSystem>)
            () -> FileSystem.newInstance(cluster.uri(), cluster.conf()));
        clients.add(fs);
        int share = files / users.size() + (u < files % users.size() ? 1 : 0);
        for (int from = 0; from < share; from += PER_DIRECTORY) {
          int first = from;
          int last = Math.min(share, from + PER_DIRECTORY);
          Random random = new Random(seed + u * 1_000_003L + from);
          writes.add(pool.submit(() -> {
            writeDirectory(fs, new Path(home, String.format(Locale.ROOT, "d%05d",
                first / PER_DIRECTORY)), first, last, random);
            return null;
          }));
        }
      }
      for (Future<?> write : writes) {
        write.get();
      }
    } finally {
      pool.shutdownNow();
      for (FileSystem client : clients) {
        client.close();
      }
    }
  }

  private void writeDirectory(FileSystem fs, Path dir, int first, int last, Random random)
      throws IOException {
    byte[] bytes = new byte[fileBytes];
    for (int i = first; i < last; i++) {
      random.nextBytes(bytes);
      try (FSDataOutputStream out = fs.create(new Path(dir, "f" + i), (short) 1)) {
        out.write(bytes, 0, 1 + random.nextInt(fileBytes));
      }
    }
  }
}
