package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoFilesTest {
  @TempDir
  Path dir;

  @Test
  void deterministicSizesInRangeAndNestedNames() throws IOException {
    DemoFiles.Tree a = DemoFiles.generate(dir.resolve("a"), 200, 9);
    DemoFiles.Tree b = DemoFiles.generate(dir.resolve("b"), 200, 9);
    assertEquals(a.names(), b.names());
    assertArrayEquals(a.lengths(), b.lengths());
    assertEquals(a.directories(), b.directories());
    long total = 0;
    for (int i = 0; i < a.names().size(); i++) {
      String name = a.names().get(i);
      byte[] bytes = Files.readAllBytes(a.root().resolve(name));
      assertArrayEquals(bytes, Files.readAllBytes(b.root().resolve(name)), name);
      assertEquals(a.lengths()[i], bytes.length, name);
      assertTrue(bytes.length >= DemoFiles.MIN_SIZE && bytes.length <= DemoFiles.MAX_SIZE, name);
      assertEquals(2, name.chars().filter(c -> c == '/').count(), name);
      total += bytes.length;
    }
    assertEquals(total, a.bytes());
    // The root, the service directories and the day directories below them.
    try (var s = Files.walk(a.root())) {
      assertEquals(a.directories(), s.filter(Files::isDirectory).count());
    }
    assertEquals(200, a.blocksAsPlainFiles(128L << 20));
    assertTrue(DemoFiles.generate(dir.resolve("c"), 200, 10).names().size() == 200);
  }
}
