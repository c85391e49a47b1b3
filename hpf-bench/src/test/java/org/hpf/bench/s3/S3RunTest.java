package org.hpf.bench.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.hpf.bench.BenchCommand;
import org.hpf.bench.s3.S3Results.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpf-bench s3} on 200 small files against the local S3-protocol server, with pages of
 * 50 keys so that listing the objects takes several: every request is counted once, and the
 * counts are those each way must send.
 */
@Tag("s3")
class S3RunTest {
  private static final int FILES = 200;
  private static final int GETS = 3;
  private static final int PAGE = 50;

  @TempDir
  Path dir;

  @Test
  void countsWhatEachWaySends() throws Exception {
    File out = dir.resolve("out").toFile();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    int code = BenchCommand.execute(new String[] {"s3", "--files", "" + FILES, "--gets",
        "" + GETS, "--max-size", "4096", "--warm-up", "0", "-D",
        "fs.s3a.paging.maximum=" + PAGE, "--out", out.getPath()},
        new PrintStream(log, true, StandardCharsets.UTF_8), System.err);
    assertEquals(0, code, () -> log.toString(StandardCharsets.UTF_8));
    S3Results r = S3Results.read(new File(out, "s3.json"));

    for (Operation op : r.operations) {
      assertEquals(op.requests().audited(), op.requests().total(),
          "every request S3A sent is counted under one kind: " + op.summary());
      assertEquals(op.requests().describe(), op.requests().describeAtServer(),
          "the server answered what S3A counted: " + op.summary());
    }
    creates(r);
    lists(r);
    for (String stream : S3Config.STREAMS) {
      gets(r, stream);
    }

    String md = Files.readString(new File(out, "s3.md").toPath());
    assertTrue(md.contains("| create | one object per file, create performance | 200 | 200 | 1.00 |")
        && md.contains("$0.005 per 1,000 PUT, COPY, POST and LIST requests"), md);
    assertTrue(S3Report.dollarsPerScale(r, r.find(Creations.OPERATION, S3Results.ARCHIVE))
        < S3Report.dollarsPerScale(r, r.find(Creations.OPERATION, Creations.PLAIN_FAST)) / 5,
        "creating the archive costs a fraction of a PUT per file");
  }

  private static void creates(S3Results r) {
    Operation archive = r.find(Creations.OPERATION, S3Results.ARCHIVE);
    long writes = archive.requests().of(RequestKind.PUT)
        + archive.requests().of(RequestKind.INITIATE_UPLOAD);
    assertTrue(writes > 0 && writes < FILES / 10, "the archive is a few objects: " + archive);
    assertTrue(r.stored.get(S3Results.ARCHIVE).objects() <= writes, r.stored::toString);
    for (String way : new String[] {Creations.PLAIN, Creations.PLAIN_FAST}) {
      Operation plain = r.find(Creations.OPERATION, way);
      assertEquals(FILES, plain.requests().of(RequestKind.PUT), plain.summary());
      assertEquals(FILES, r.stored.get(way).objects(), way);
    }
    assertEquals(FILES, r.find(Creations.OPERATION, Creations.PLAIN_FAST).requests().total(),
        "without S3A's checks, one PUT per file and nothing else");
  }

  private static void lists(S3Results r) {
    Operation archive = r.find(Listings.OPERATION, S3Results.ARCHIVE);
    assertEquals(1, archive.requests().of(RequestKind.LIST), "one listing of the manifests");
    assertTrue(archive.requests().total() <= 5, archive.summary());

    Operation flat = r.find(Listings.OPERATION, Creations.PLAIN);
    assertEquals(1, flat.requests().of(RequestKind.LIST), flat.summary());
    assertEquals((FILES + PAGE - 1) / PAGE - 1, flat.requests().of(RequestKind.LIST_NEXT_PAGE),
        "a page per " + PAGE + " keys: " + flat.summary());

    Operation walk = r.find(Listings.OPERATION, Listings.PLAIN_WALK);
    assertEquals(directories(), walk.requests().of(RequestKind.LIST),
        "a listing per directory, none holding more than a page: " + walk.summary());
  }

  /** The directories of the generated names, with the one that holds them. */
  private static int directories() {
    S3Config config = new S3Config();
    config.files = FILES;
    config.maxSize = 4096;
    Set<String> directories = new HashSet<>(Set.of(""));
    for (String name : SmallFiles.generate(config).names()) {
      for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
        directories.add(name.substring(0, slash));
      }
    }
    return directories.size();
  }

  private static void gets(S3Results r, String stream) {
    Operation cold = r.find(Gets.cold(stream), S3Results.ARCHIVE);
    assertEquals(GETS, cold.items());
    assertEquals(GETS, cold.requests().of(RequestKind.LIST),
        "a new reader lists the manifests once: " + cold.summary());
    Operation warm = r.find(Gets.warm(stream), S3Results.ARCHIVE);
    assertEquals(0, warm.requests().of(RequestKind.LIST) + warm.requests().of(RequestKind.HEAD),
        "an open reader neither lists nor asks for lengths: " + warm.summary());
    assertTrue(warm.requests().of(RequestKind.GET) <= 2 * GETS, warm.summary());
    if (stream.equals("classic")) {
      assertEquals(0, cold.requests().of(RequestKind.HEAD),
          "the manifest gives every length: " + cold.summary());
    }
    for (String mode : new String[] {Gets.cold(stream), Gets.warm(stream)}) {
      Operation plain = r.find(mode, Creations.PLAIN);
      assertEquals(GETS, plain.requests().of(RequestKind.GET), plain.summary());
      assertEquals(0, plain.requests().of(RequestKind.LIST), plain.summary());
    }
  }
}
