package org.hpf.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;
import org.hpf.HpfArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java example in the README and the guides compiles against the public API and runs:
 * each {@code ```java} block becomes the body of a method, with the imports a user would write
 * and {@code conf}, {@code archive} and {@code bytes} as parameters where the block does not
 * declare them; none may name the engine ({@code org.hpf.internal}). Each then runs on the
 * local file system, its {@code hdfs://}, {@code file://} and {@code hpf://} paths moved below a
 * directory of its own that holds the trees the examples archive. The prose of the user
 * documents names no engine type either ({@link #userDocumentsNameNoEngineType}).
 */
class DocExamplesTest {
  private static final List<String> DOCUMENTS = List.of("README.md", "docs/USER-GUIDE.md",
      "docs/HDFS.md", "docs/HPF-FILESYSTEM.md");
  private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final String IMPORTS = String.join("\n",
      "import java.io.*;",
      "import java.nio.charset.StandardCharsets;",
      "import java.util.*;",
      "import org.apache.hadoop.conf.Configuration;",
      "import org.apache.hadoop.fs.BlockLocation;",
      "import org.apache.hadoop.fs.Path;",
      "import org.apache.hadoop.mapreduce.Job;",
      "import org.apache.hadoop.mapreduce.Mapper;",
      "import org.hpf.*;",
      "import org.hpf.mapreduce.*;");

  @TempDir Path tmp;

  /** The repository's root: the directory above the module that holds README.md. */
  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("README.md"))) {
      dir = dir.getParent();
    }
    assertTrue(dir != null, "no README.md above " + Path.of("").toAbsolutePath());
    return dir;
  }

  record Example(String document, int index, String code) {
    String className() {
      return document.replaceAll("[^A-Za-z]", "_") + "_" + index;
    }

    /** The parameters the block uses without declaring them, in this order. */
    List<String> parameters() {
      List<String> parameters = new ArrayList<>();
      if (!code.contains("Configuration conf =")) {
        parameters.add("Configuration conf");
      }
      if (!code.contains("Path archive =")) {
        parameters.add("Path archive");
      }
      if (!code.contains("byte[] bytes =")) {
        parameters.add("byte[] bytes");
      }
      return parameters;
    }

    String source() {
      return IMPORTS + "\n\npublic class " + className() + " {\n  public static void example("
          + String.join(", ", parameters()) + ") throws Exception {\n" + code
          + "\n  }\n}\n";
    }

    /**
     * This example with its paths below {@code root}: {@code hdfs://nn/a/b} and
     * {@code file:///a/b} become {@code file://<root>/a/b}, {@code hpf://hdfs-nn/a/b} becomes
     * {@code hpf://file-<root>/a/b}.
     */
    Example local(Path root) {
      Matcher paths = PATH.matcher(code);
      StringBuilder local = new StringBuilder();
      while (paths.find()) {
        String path = root.toAbsolutePath() + paths.group(3);
        paths.appendReplacement(local, Matcher.quoteReplacement("\"" + (paths.group(1)
            .equals("hpf") ? "hpf://file-" : "file://") + path + "\""));
      }
      paths.appendTail(local);
      return new Example(document, index, local.toString());
    }
  }

  private static final Pattern PATH = Pattern.compile("\"(hdfs|file|hpf)://([^/\"]*)(/[^\"]*)\"");

  static List<Example> examples() throws IOException {
    List<Example> examples = new ArrayList<>();
    for (String document : DOCUMENTS) {
      String text = Files.readString(root().resolve(document), StandardCharsets.UTF_8);
      Matcher m = BLOCK.matcher(text);
      int index = 0;
      while (m.find()) {
        examples.add(new Example(document, ++index, m.group(1)));
      }
    }
    return examples;
  }

  @Test
  void everyJavaExampleCompiles() throws IOException {
    List<Example> examples = examples();
    assertTrue(examples.size() >= 6, "found the examples: " + examples.size());
    assertTrue(examples.stream().anyMatch(e -> e.document().equals("README.md")
        && e.code().contains("HpfArchive.create")), "the README's library example");
    for (Example example : examples) {
      assertFalse(example.code().contains("org.hpf.internal"), () -> example.document()
          + ", example " + example.index() + ", names the engine:\n" + example.code());
    }
    assertEquals("", compile(examples, tmp.resolve("classes")),
        "documentation examples that do not compile");
  }

  @Test
  void everyJavaExampleRunsOnTheLocalFileSystem() throws Exception {
    List<Example> examples = new ArrayList<>();
    for (Example example : examples()) {
      examples.add(example.local(tmp.resolve(example.className())));
    }
    assertEquals("", compile(examples, tmp.resolve("classes")));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {
        tmp.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
      for (Example example : examples) {
        Method method = loader.loadClass(example.className()).getMethod("example",
            example.parameters().stream().map(DocExamplesTest::type).toArray(Class[]::new));
        Object[] arguments = arguments(example, tmp.resolve(example.className()));
        try {
          method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
          throw new AssertionError(example.document() + ", example " + example.index()
              + ", fails on the local file system:\n" + example.code(), e.getCause());
        }
      }
    }
  }

  /**
   * The values of an example's parameters, below its own directory, which gets the trees the
   * examples archive ({@code data/logs}, {@code data/new-logs}). Its {@code archive} is new for
   * an example that creates it, else created from {@code data/logs}.
   */
  private static Object[] arguments(Example example, Path root) throws IOException {
    Map<String, String> logs = Map.of("app-01/host-07/log-000123.txt", "123",
        "app-01/old.log", "old", "big/file.bin", "big", "a/b.txt", "b");
    writeTree(root.resolve("data/logs"), logs);
    writeTree(root.resolve("data/new-logs"), Map.of("app-01/host-07/log-000123.txt",
        "123 again", "app-02/new.log", "new"));
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(
        root.resolve("archive.hpf").toUri());
    if (!example.code().contains("HpfArchive.create(archive")) {
      HpfArchive.createFromTrees(archive, conf, List.of(new org.apache.hadoop.fs.Path(
          root.resolve("data/logs").toUri())));
    }
    List<Object> arguments = new ArrayList<>();
    for (String parameter : example.parameters()) {
      arguments.add(parameter.startsWith("Configuration") ? conf
          : parameter.startsWith("Path") ? archive : "bytes".getBytes(StandardCharsets.UTF_8));
    }
    return arguments.toArray();
  }

  private static void writeTree(Path root, Map<String, String> files) throws IOException {
    for (Map.Entry<String, String> file : files.entrySet()) {
      Path path = root.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue());
    }
  }

  private static Class<?> type(String parameter) {
    return parameter.startsWith("Configuration") ? Configuration.class
        : parameter.startsWith("Path") ? org.apache.hadoop.fs.Path.class : byte[].class;
  }

  /**
   * The user documents name the public API only: no code span names a type of the engine
   * ({@code org.hpf.internal}, the command line's classes) that the public packages lack.
   * Sections for contributors, whose heading ends in "(engine)", and the design documents
   * (FORMAT.md, CRASH-SAFETY.md, BENCHMARKS.md), which describe the engine itself, may.
   */
  @Test
  void userDocumentsNameNoEngineType() throws IOException {
    Set<String> engine = typeNames(root().resolve("hpf-core/src/main/java/org/hpf/internal"));
    engine.addAll(typeNames(root().resolve("hpf-cli/src/main/java")));
    for (String api : List.of("org/hpf", "org/hpf/fs", "org/hpf/mapreduce")) {
      try (var files = Files.list(root().resolve("hpf-core/src/main/java").resolve(api))) {
        files.forEach(f -> engine.remove(f.getFileName().toString().replace(".java", "")));
      }
    }
    assertTrue(engine.contains("WriterOptions") && !engine.contains("ArchiveWriter"), "engine");
    List<String> named = new ArrayList<>();
    for (String document : List.of("README.md", "docs/USER-GUIDE.md", "docs/CLI.md",
        "docs/HDFS.md", "docs/HPF-FILESYSTEM.md", "docs/CLUSTER.md", "docs/SECURITY.md")) {
      List<String> lines = Files.readAllLines(root().resolve(document), StandardCharsets.UTF_8);
      boolean engineSection = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.startsWith("#")) {
          engineSection = line.strip().endsWith("(engine)");
        }
        Matcher spans = CODE_SPAN.matcher(line);
        while (!engineSection && spans.find()) {
          Matcher words = TYPE_NAME.matcher(spans.group(1));
          while (words.find()) {
            if (engine.contains(words.group())) {
              named.add(document + ":" + (i + 1) + ": `" + spans.group(1) + "`");
            }
          }
        }
      }
    }
    assertEquals(List.of(), named, "engine types named in user documents");
  }

  private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern TYPE_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9]*\\b");

  /** The simple names of the classes below a source directory. */
  private static Set<String> typeNames(Path sources) throws IOException {
    try (var files = Files.walk(sources)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".java"))
          .map(n -> n.substring(0, n.length() - ".java".length()))
          .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }
  }

  /** Compiles the examples into {@code classes}; returns the errors, empty when none. */
  private static String compile(List<Example> examples, Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<JavaFileObject> sources = new ArrayList<>();
    for (Example example : examples) {
      sources.add(new SimpleJavaFileObject(URI.create("string:///" + example.className()
          + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return example.source();
        }
      });
    }
    Files.createDirectories(classes);
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
        StandardCharsets.UTF_8)) {
      StringWriter out = new StringWriter();
      boolean ok = javac.getTask(out, files, diagnostics, List.of("-classpath",
          System.getProperty("java.class.path"), "-d", classes.toString(), "-proc:none"),
          null, sources).call();
      StringBuilder errors = new StringBuilder();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.append(d.getSource() == null ? "" : d.getSource().getName()).append(':')
              .append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT))
              .append('\n');
        }
      }
      return ok ? errors.toString() : errors + out.toString();
    }
  }
}
