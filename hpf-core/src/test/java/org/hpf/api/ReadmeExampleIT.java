package org.hpf.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.hpf.ArchiveReader;
import org.hpf.HpfArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the README tells a new user is enough: a fresh Maven project whose dependencies are the
 * README's "Use it from Maven" block compiles the README's library example and runs it. The
 * project is built with this build's local repository (offline when this build is), into which
 * the jar and poms just built are put first, as {@code mvn install} would.
 */
class ReadmeExampleIT {
  private static final Pattern MAVEN_BLOCK = Pattern.compile(
      "### Use it from Maven\\s+```xml\\n(.*?)```", Pattern.DOTALL);
  private static final String MEMBER = "app-01/2026-11-03/host-07/log-000123.txt";

  @TempDir
  Path dir;

  @Test
  void aFreshProjectBuildsAndRunsTheReadmeExample() throws Exception {
    Path root = DocExamplesTest.root();
    Matcher dependencies = MAVEN_BLOCK.matcher(Files.readString(root.resolve("README.md"),
        StandardCharsets.UTF_8));
    assertTrue(dependencies.find(), "the README's \"Use it from Maven\" block");
    Path run = dir.resolve("run");
    DocExamplesTest.Example example = DocExamplesTest.examples().stream()
        .filter(e -> e.document().equals("README.md")).findFirst().orElseThrow().local(run);
    assertEquals(List.of("byte[] bytes"), example.parameters(), "the example declares the rest");
    Files.createDirectories(run.resolve("data/logs/app-02"));
    Files.writeString(run.resolve("data/logs/app-02/x.log"), "x");

    Path project = dir.resolve("project");
    Path sources = Files.createDirectories(project.resolve("src/main/java"));
    Files.writeString(project.resolve("pom.xml"), pom(dependencies.group(1)));
    Files.writeString(sources.resolve(example.className() + ".java"), example.source());
    Files.writeString(sources.resolve("Main.java"), "public class Main {\n"
        + "  public static void main(String[] args) throws Exception {\n"
        + "    " + example.className() + ".example(args[0].getBytes(\"UTF-8\"));\n  }\n}\n");

    Path repository = Path.of(System.getProperty("hpf.localRepository"));
    installBuiltArtifacts(root, repository);
    Path classpath = project.resolve("classpath.txt");
    List<String> maven = new ArrayList<>(List.of(
        Path.of(System.getProperty("hpf.mavenHome"), "bin", "mvn").toString(), "-B", "-q",
        "-Dmaven.repo.local=" + repository, "-f", project.resolve("pom.xml").toString(),
        "compile", "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
        "-Dmdep.outputFile=" + classpath));
    if (System.getProperty("hpf.offline", "").endsWith("true")) {
      maven.add(1, "-o");
    }
    run(maven, project);
    run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        project.resolve("target/classes") + java.io.File.pathSeparator
            + Files.readString(classpath).strip(), "Main", "hello from the README"), project);

    try (ArchiveReader reader = HpfArchive.openReader(new org.apache.hadoop.fs.Path(
        run.resolve("archives/logs.hpf").toUri()), new Configuration())) {
      assertArrayEquals("hello from the README".getBytes(StandardCharsets.UTF_8),
          reader.get(MEMBER));
      assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), reader.get("app-02/x.log"));
    }
  }

  /** A project of Java 17 with these dependencies and the plugins this build uses. */
  private static String pom(String dependencies) {
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>example</groupId>
          <artifactId>readme-example</artifactId>
          <version>1</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
        %s
          <build>
            <plugins>
              <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-resources-plugin</artifactId>
                <version>3.3.1</version>
              </plugin>
              <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.14.0</version>
              </plugin>
            </plugins>
          </build>
        </project>
        """.formatted(dependencies);
  }

  /** Puts hpf-core's jar and pom, and the parent pom, where install puts them. */
  private static void installBuiltArtifacts(Path root, Path repository) throws IOException {
    String version = System.getProperty("hpf.version");
    Path core = Files.createDirectories(repository.resolve("org/hpf/hpf-core/" + version));
    Path parent = Files.createDirectories(repository.resolve("org/hpf/hpf-parent/" + version));
    Files.copy(Path.of(System.getProperty("hpf.coreJar")),
        core.resolve("hpf-core-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(root.resolve("hpf-core/pom.xml"), core.resolve("hpf-core-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    Files.copy(root.resolve("pom.xml"), parent.resolve("hpf-parent-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
  }

  private static void run(List<String> command, Path directory) throws Exception {
    Process process = new ProcessBuilder(command).directory(directory.toFile())
        .redirectErrorStream(true).start();
    process.getOutputStream().close();
    byte[] output = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(5, TimeUnit.MINUTES), "still running: " + command);
    assertEquals(0, process.exitValue(), () -> String.join(" ", command) + "\n"
        + new String(output, StandardCharsets.UTF_8));
  }
}
