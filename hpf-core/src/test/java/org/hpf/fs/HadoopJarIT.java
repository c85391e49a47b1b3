package org.hpf.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code hpf-core-<version>-hadoop.jar} is all a Hadoop client needs to read
 * {@code hpf://}: Hadoop's own FsShell, in a JVM whose classpath is a Hadoop client's plus that
 * one jar (no sux4j, fastutil, lz4-java or Guava besides it), lists and reads an archive.
 */
class HadoopJarIT {
  @TempDir
  Path dir;

  @Test
  void fsShellReadsAnArchiveWithOnlyTheHadoopJarAdded() throws Exception {
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < 30; i++) {
      // Repetitive text compresses: members are read through LZ4 and through the functions.
      files.put("logs/day-" + (i % 3) + "/f" + i + ".log", ("line " + i + "\n").repeat(50 + i));
    }
    Path src = dir.resolve("src");
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path file = src.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, f.getValue());
    }
    Path archive = dir.resolve("a.hpf");
    ArchiveCreator.create(new Configuration(), new org.apache.hadoop.fs.Path(archive.toUri()),
        List.of(new org.apache.hadoop.fs.Path(src.toUri())), WriterOptions.defaults());
    String root = "hpf://file-" + archive.toAbsolutePath();

    String listing = fsShell("-ls", "-R", root + "/logs/day-1");
    for (String name : files.keySet()) {
      assertEquals(name.startsWith("logs/day-1/"), listing.contains(root + "/" + name), listing);
    }
    String name = "logs/day-2/f29.log";
    assertEquals(files.get(name), fsShell("-cat", root + "/" + name));
  }

  /**
   * Spark's {@code --jars} puts the jar on a class loader after Hadoop has read its FileSystem
   * service files: then hpf:// resolves only with {@code fs.hpf.impl} set, as HPF-FILESYSTEM.md
   * says to set it ({@code --conf spark.hadoop.fs.hpf.impl=org.hpf.fs.HpfFileSystem}).
   */
  @Test
  void aJarAddedAfterHadoopStartedResolvesWithTheDocumentedSetting() throws Exception {
    String setting = "--conf spark.hadoop.fs.hpf.impl=org.hpf.fs.HpfFileSystem";
    assertTrue(Files.readString(Path.of(System.getProperty("hpf.root", ".."),
        "docs/HPF-FILESYSTEM.md")).contains(setting), "the documented setting");
    Path src = dir.resolve("late-src");
    Files.createDirectories(src);
    String content = "member read through a late class loader\n".repeat(20);
    Files.writeString(src.resolve("m.txt"), content);
    Path archive = dir.resolve("late.hpf");
    ArchiveCreator.create(new Configuration(), new org.apache.hadoop.fs.Path(archive.toUri()),
        List.of(new org.apache.hadoop.fs.Path(src.toUri())), WriterOptions.defaults());
    // The probe alone, without the rest of the test classes (or hpf's own classes).
    String probe = LateJarProbe.class.getName().replace('.', '/') + ".class";
    Path probeDir = dir.resolve("probe");
    Files.createDirectories(probeDir.resolve(probe).getParent());
    try (var in = LateJarProbe.class.getClassLoader().getResourceAsStream(probe)) {
      Files.copy(in, probeDir.resolve(probe));
    }
    String out = run(probeDir.toString(), LateJarProbe.class.getName(),
        System.getProperty("hpf.hadoopJar"), "hpf://file-" + archive.toAbsolutePath() + "/m.txt");
    assertEquals("without: org.apache.hadoop.fs.UnsupportedFileSystemException\nwith: " + content,
        out);
  }

  /**
   * The jar relocates lz4-java, as its other libraries that Hadoop and Spark may bring in other
   * versions (Spark ships its own net.jpountz): none of its classes under net/jpountz. Members
   * compressed with LZ4 still read (the FsShell test above).
   */
  @Test
  void theHadoopJarRelocatesLz4() throws IOException {
    try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(System.getProperty(
        "hpf.hadoopJar"))) {
      List<String> names = jar.stream().map(java.util.zip.ZipEntry::getName).toList();
      assertEquals(List.of(), names.stream().filter(n -> n.startsWith("net/jpountz/")).limit(5)
          .toList());
      assertTrue(names.contains("org/hpf/shaded/net/jpountz/lz4/LZ4Factory.class"),
          "lz4-java relocated");
    }
  }

  /**
   * {@code hadoop jar hpf-core-<version>-hadoop.jar org.hpf.mapreduce.ArchiveJob}: the
   * archive job runs (on the local job runner) with only the jar added to Hadoop's classpath.
   */
  @Test
  void theArchiveJobRunsFromTheHadoopJar() throws Exception {
    Path src = dir.resolve("job-src");
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < 40; i++) {
      files.put("d" + (i % 4) + "/f" + i + ".txt", ("record " + i + "\n").repeat(20 + i));
    }
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path file = src.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, f.getValue());
    }
    Path archive = dir.resolve("job.hpf");
    String jar = System.getProperty("hpf.hadoopJar");
    String out = hadoop("org.apache.hadoop.util.RunJar", jar,
        "org.hpf.mapreduce.ArchiveJob", "-D", "mapreduce.framework.name=local",
        "-D", "hadoop.tmp.dir=" + dir.resolve("hadoop-tmp"), src.toUri().toString(),
        archive.toUri().toString());
    assertTrue(out.contains("created generation 1"), out);
    try (var reader = org.hpf.internal.read.HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(archive.toUri()))) {
      assertEquals(files.size(), reader.manifest().fileCount());
      for (Map.Entry<String, String> f : files.entrySet()) {
        assertEquals(f.getValue(), new String(reader.get(f.getKey()), StandardCharsets.UTF_8));
      }
    }
  }

  /** Runs FsShell in a new JVM on the Hadoop classpath plus the hadoop jar; its stdout. */
  private String fsShell(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("org.apache.hadoop.fs.FsShell"));
    all.addAll(List.of(args));
    return hadoop(all.toArray(new String[0]));
  }

  /** Runs a main class in a new JVM on the Hadoop classpath plus the hadoop jar; its stdout. */
  private String hadoop(String... args) throws IOException, InterruptedException {
    String jar = System.getProperty("hpf.hadoopJar");
    assertTrue(Files.isRegularFile(Path.of(jar)), jar);
    return run(jar, args);
  }

  /**
   * Runs a main class in a new JVM on the Hadoop classpath after {@code first}; its stdout.
   */
  private String run(String first, String... args) throws IOException, InterruptedException {
    String hadoop = Files.readString(Path.of(System.getProperty("hpf.hadoopClasspath"))).strip();
    // (Hadoop's own hadoop-shaded-guava is fine: it is relocated.)
    for (String forbidden : List.of("/it/unimi/", "/at/yawk/", "/com/google/guava/")) {
      assertTrue(!hadoop.contains(forbidden), forbidden + " must come from the jar only");
    }
    // FsShell turns quiet mode off: like `hadoop fs`, it needs a configuration directory with a
    // core-site.xml (an empty one here: hpf:// needs no setting).
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("core-site.xml"), "<configuration/>\n");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", String.join(java.io.File.pathSeparator, conf.toString(), first, hadoop)));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command)
        .redirectError(dir.resolve("stderr.txt").toFile())
        .start();
    byte[] out = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), args[0] + " finished");
    assertEquals(0, process.exitValue(), () -> String.join(" ", args) + " failed: "
        + readQuietly(dir.resolve("stderr.txt")));
    return new String(out, StandardCharsets.UTF_8);
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
