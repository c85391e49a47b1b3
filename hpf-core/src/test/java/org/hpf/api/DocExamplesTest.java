package org.hpf.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java example in the README and the guides compiles against the public API: each
 * {@code ```java} block becomes the body of a method, with the imports a user would write and
 * {@code conf}, {@code archive} and {@code bytes} as parameters where the block does not
 * declare them.
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

    String source() {
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
      return IMPORTS + "\n\nclass " + className() + " {\n  static void example("
          + String.join(", ", parameters) + ") throws Exception {\n" + code + "\n  }\n}\n";
    }
  }

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
    Files.createDirectories(tmp.resolve("classes"));
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT,
        StandardCharsets.UTF_8)) {
      StringWriter out = new StringWriter();
      boolean ok = javac.getTask(out, files, diagnostics, List.of("-classpath",
          System.getProperty("java.class.path"), "-d", tmp.resolve("classes").toString(),
          "-proc:none"), null, sources).call();
      StringBuilder errors = new StringBuilder();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.append(d.getSource() == null ? "" : d.getSource().getName()).append(':')
              .append(d.getLineNumber()).append(": ").append(d.getMessage(Locale.ROOT))
              .append('\n');
        }
      }
      assertEquals("", errors.toString(), "documentation examples that do not compile");
      assertTrue(ok, out.toString());
    }
  }
}
