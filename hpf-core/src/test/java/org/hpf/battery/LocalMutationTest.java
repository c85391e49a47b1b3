package org.hpf.battery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.FileNotInArchiveException;
import org.hpf.HashCollisionException;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.read.HpfReader;
import org.hpf.internal.write.ArchiveWriter;
import org.hpf.internal.write.ChangeResult;
import org.hpf.internal.write.WriterOptions;
import org.junit.jupiter.api.Test;

/**
 * The mutation battery on the local file system, with the tests that do not depend on the file
 * system (the layer policy, retention, empty archives) run here only.
 */
class LocalMutationTest extends MutationBattery {
  LocalMutationTest() {
    super(local());
  }

  /** An append of nothing and an append to an empty archive. */
  @Test
  void appendToAnEmptyArchiveAndAnEmptyAppend() throws IOException {
    Path archive = archivePath("empty");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(4)).build();
    Model model = create(archive, new TestTree(), options);
    assertArchiveIs(archive, model);
    try (ArchiveWriter writer = writer(archive, options)) {
      TestTree added = newFiles("a", pick(30, 10), 300);
      writer.append(List.of(sources(added)), false);
      model.add(added);
      assertArchiveIs(archive, model);
      // Into the empty base: merged there, no layer on top.
      try (HpfReader reader = open(archive)) {
        assertEquals(1, reader.layers().size());
      }
      ChangeResult nothing = writer.append(List.of(sources(new TestTree())), false);
      assertEquals(0, nothing.filesAdded());
      assertEquals(model.members.size(), nothing.fileCount());
      assertArchiveIs(archive, model);
    }
  }

  /**
   * A fixed sequence that builds three layers and three segments, then folds and merges: every
   * step's layer and segment counts are those the policy of docs/FORMAT.md gives.
   */
  @Test
  void layersFoldAndMergeAsThePolicySays() throws IOException {
    Path archive = archivePath("policy");
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(16)).build();
    Model model = create(archive, newFiles("base", 200, 100), options);
    try (ArchiveWriter writer = writer(archive, options)) {
      // 200 records in the base: 40 new ones (40 * 4 < 200) make a layer of their own, and a
      // names segment of their own.
      TestTree first = newFiles("first", 40, 100);
      writer.append(List.of(sources(first)), false);
      model.add(first);
      assertShape(archive, model, List.of(200L, 40L), List.of(200L, 40L));
      // 3 deletions of base members (3 * 4 < 40): a layer of tombstones, a segment of deletions.
      List<String> three = new ArrayList<>(model.members.keySet()).subList(0, 3);
      assertTrue(three.stream().allMatch(n -> n.startsWith("base/")));
      three = new ArrayList<>(three);
      writer.delete(three);
      model.delete(three);
      assertShape(archive, model, List.of(200L, 40L, 3L), List.of(200L, 40L, 3L));
      // 1 new record (1 * 4 >= 3): the top layer folds into it, 4 records (4 * 4 < 40) on the
      // second layer; the new segment of 1 merges with the one of 3 (deletions kept: the oldest
      // segment is not part of the merge).
      TestTree second = newFiles("second", 1, 100);
      writer.append(List.of(sources(second)), false);
      model.add(second);
      assertShape(archive, model, List.of(200L, 40L, 4L), List.of(200L, 40L, 4L));
      // 10 more: fold the top (14 records, 14 * 4 >= 40), fold the second (54, 54 * 4 >= 200):
      // merged into the base, whose tombstoned records go; segments likewise, down to one.
      TestTree third = newFiles("third", 10, 100);
      writer.append(List.of(sources(third)), false);
      model.add(third);
      long members = model.members.size();
      assertEquals(200 + 40 - 3 + 1 + 10, members);
      assertShape(archive, model, List.of(members), List.of(members));
    }
  }

  private void assertShape(Path archive, Model model, List<Long> layerRecords,
      List<Long> segmentEntries) throws IOException {
    try (HpfReader reader = open(archive)) {
      assertEquals(layerRecords,
          reader.manifest().layers().stream().map(Manifest.Layer::records).toList(), "layers");
      assertEquals(segmentEntries, reader.manifest().namesSegments().stream()
          .map(Manifest.NamesSegment::entries).toList(), "segments");
    }
    assertArchiveIs(archive, model);
  }

  /** A writer with a longer retention keeps old generations readable. */
  @Test
  void retentionKeepsOlderGenerationsReadable() throws IOException {
    Path archive = archivePath("retain");
    retains(archive, 4);
    WriterOptions options = WriterOptions.builder().settings(s -> s.retainGenerations(4))
        .layout(l -> l.withBucketCapacity(8)).build();
    Model first = create(archive, newFiles("base", pick(40, 20), 800), options);
    try (HpfReader old = open(archive); ArchiveWriter writer = writer(archive, options)) {
      Model model = first.copy();
      for (int i = 0; i < 3; i++) {
        TestTree tree = newFiles("g" + i, 12, 800);
        tree.addOrFail("b/" + i, TestTree.content(random(), 50), TestTree.mtime(random()));
        writer.append(List.of(sources(tree)), false);
        model.add(tree);
      }
      // Three newer generations, four kept: generation 1 still reads in full.
      assertReaderSees(old, first);
      assertOnlyKeptGenerations(archive, 4);
      assertEquals(4, listFiles(archive).keySet().stream()
          .filter(f -> f.startsWith(Manifest.DIR + "/")).count());
      try (HpfReader reader = open(archive)) {
        assertReaderSees(reader, model);
      }
    }
  }

  /**
   * 128-bit hash collisions in changes, as the create treats them: an append that brings a name
   * with a member's hash (with or without replace) or two names with one hash fails with
   * HashCollisionException and leaves the archive as it was, without a journal (the next writer
   * needs no recovery); a delete of a non-member whose hash is a member's is
   * FileNotInArchiveException and deletes nothing.
   */
  @Test
  void hashCollisionsInChangesFailAndLeaveTheArchiveAsItWas() throws IOException {
    Path archive = archivePath("collisions");
    TestTree base = newFiles("base", 40, 500);
    String member = base.names().get(7);
    ForcedHasher hasher = ForcedHasher.builder().sameAs("ghost/x", member)
        .sameAs("twin/b", "twin/a").build();
    WriterOptions options = WriterOptions.builder().layout(l -> l.withBucketCapacity(8))
        .hasher(hasher).build();
    Model model = create(archive, base, options);
    TestTree ghost = new TestTree();
    ghost.addOrFail("ghost/x", TestTree.content(random(), 50), TestTree.mtime(random()));
    TestTree twins = newFiles("other", 3, 100);
    twins.addOrFail("twin/a", TestTree.content(random(), 60), TestTree.mtime(random()));
    twins.addOrFail("twin/b", TestTree.content(random(), 70), TestTree.mtime(random()));
    try (ArchiveWriter writer = writer(archive, options)) {
      Map<String, Long> before = listFiles(archive);
      for (boolean replace : new boolean[] {false, true}) {
        HashCollisionException e = assertThrows(HashCollisionException.class,
            () -> writer.append(List.of(sources(ghost)), replace), "replace " + replace);
        assertTrue(e.getMessage().contains("ghost/x") && e.getMessage().contains(member),
            e.getMessage());
        assertEquals(before, listFiles(archive), "the archive as it was");
      }
      HashCollisionException e = assertThrows(HashCollisionException.class,
          () -> writer.append(List.of(sources(twins)), false));
      assertTrue(e.getMessage().contains("twin/a") && e.getMessage().contains("twin/b"),
          e.getMessage());
      assertEquals(before, listFiles(archive), "no journal, part or index file left behind");
      assertThrows(FileNotInArchiveException.class, () -> writer.delete(List.of("ghost/x")));
      assertThrows(FileNotInArchiveException.class,
          () -> writer.delete(List.of(member, "ghost/x")));
      assertEquals(before, listFiles(archive), "a refused delete writes nothing");
      assertArchiveIs(archive, model);
      TestTree fine = newFiles("fine", 5, 100);
      writer.append(List.of(sources(fine)), false);
      model.add(fine);
    }
    try (ArchiveWriter writer = writer(archive, options)) {
      assertFalse(writer.recovery().rolledForward(), "nothing to recover");
      assertEquals(2, writer.manifest().generation());
    }
    assertArchiveIs(archive, model);
  }
}
