package org.hpf.bench.s3;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.hpf.bench.DatasetGenerator;

/**
 * The run's small files, generated in memory so that no local disk read is timed: names nested
 * like {@code app-07/2026-11-03/host-12/log-0000123.txt}, log-like text.
 */
record SmallFiles(List<String> names, List<byte[]> contents, long bytes) {
  private static final double PARETO_SHAPE = 0.9;

  static SmallFiles generate(S3Config config) {
    DatasetGenerator generator = new DatasetGenerator(config.seed, config.minSize,
        config.maxSize, DatasetGenerator.SizeDistribution.PARETO, PARETO_SHAPE,
        DatasetGenerator.Content.TEXT);
    List<String> names = new ArrayList<>(config.files);
    List<byte[]> contents = new ArrayList<>(config.files);
    long bytes = 0;
    for (int i = 0; i < config.files; i++) {
      DatasetGenerator.Generated file = generator.generate(i);
      names.add(file.name());
      contents.add(file.bytes());
      bytes += file.bytes().length;
    }
    return new SmallFiles(List.copyOf(names), List.copyOf(contents), bytes);
  }

  /** The first {@code n} files. */
  SmallFiles first(int n) {
    List<byte[]> firstContents = contents.subList(0, n);
    return new SmallFiles(names.subList(0, n), firstContents,
        firstContents.stream().mapToLong(c -> c.length).sum());
  }

  int count() {
    return names.size();
  }

  /**
   * {@code 2 * count} distinct files picked at random with {@code seed}: the first half warms a
   * client up, the second is measured.
   */
  List<Integer> sample(int count, long seed) {
    List<Integer> all = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      all.add(i);
    }
    Collections.shuffle(all, new java.util.Random(new SplittableRandom(seed).nextLong()));
    return List.copyOf(all.subList(0, 2 * count));
  }
}
