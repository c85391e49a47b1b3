package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.hpf.internal.format.NameEntry;
import org.junit.jupiter.api.Test;

/** Names.withPrefix, the plain-files model of NameNodeModel, Json. */
class HelpersTest {
  @Test
  void prefixSelectsTheContiguousRunAndStops() {
    List<String> names = List.of("a", "a.b/x", "a/b", "a/c/d", "a0", "b/a");
    assertEquals(List.of("a/b", "a/c/d"), select(names, "a/"));
    assertEquals(List.of("a", "a.b/x", "a/b", "a/c/d", "a0"), select(names, "a"));
    assertEquals(names, select(names, ""));
    assertEquals(List.of(), select(names, "0"));
    assertEquals(List.of(), select(names, "c"));
    // The stream ends at the first name past the prefix: a later element is never pulled.
    Stream<NameEntry> endless = Stream.iterate(0, i -> i + 1)
        .map(i -> NameEntry.present(String.format("n%06d", i), 1, 0));
    assertEquals(10, Names.withPrefix(endless, "n00001").count());
  }

  private static List<String> select(List<String> names, String prefix) {
    return Names.withPrefix(names.stream().map(n -> NameEntry.present(n, 1, 0)), prefix)
        .map(NameEntry::name).toList();
  }

  @Test
  void plainFilesCountEveryImpliedDirectoryOnce() {
    List<NameEntry> entries = Stream.of("a.txt", "b/c/d.txt", "b/c/e.txt", "b/f.txt",
        "b0/g.txt", "ba/h/i/j.txt").map(n -> NameEntry.present(n, 10, 0)).toList();
    // Directories: b, b/c, b0, ba, ba/h, ba/h/i, plus the root; 6 files.
    NameNodeModel.Objects o = NameNodeModel.asPlainFiles(entries.iterator(), 128);
    assertEquals(1 + 6 + 6, o.inodes());
    assertEquals(6, o.blocks());
    assertEquals(NameNodeModel.OBJECT_BYTES * 19L, o.memoryBytes());
    assertEquals(3, NameNodeModel.asPlainFiles(List.of(NameEntry.present("x", 300, 0),
        NameEntry.present("y", 0, 0)).iterator(), 128).blocks(), "blocks started, empty none");
    assertEquals(1, NameNodeModel.newDirectories("a/b/", "a/bc/"));
    assertEquals(0, NameNodeModel.newDirectories("a/b/c/", "a/b/"));
    assertEquals(2, NameNodeModel.newDirectories("", "x/y/"));
  }

  @Test
  void jsonEscapesAndFormats() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "a\"b\\c\nd\u0001");
    m.put("n", 42L);
    m.put("d", 0.5);
    m.put("i", 3.0);
    m.put("b", true);
    m.put("z", null);
    m.put("l", List.of(1, 2));
    m.put("e", Map.of());
    m.put("nan", Double.NaN);
    m.put("f", 1.0f / 3);
    assertEquals("{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"n\": 42,\n  \"d\": 0.5,\n"
        + "  \"i\": 3.0,\n  \"b\": true,\n  \"z\": null,\n  \"l\": [\n    1,\n    2\n  ],\n"
        + "  \"e\": {},\n  \"nan\": null,\n  \"f\": 0.3333\n}\n", Json.write(m));
  }
}
