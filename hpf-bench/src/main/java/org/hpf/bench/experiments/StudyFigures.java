package org.hpf.bench.experiments;

import java.util.List;

/**
 * The numbers the published studies print, as they print them (seconds, sizes in GB), so each
 * experiment can set its own ratios next to theirs. docs/BENCHMARKS.md lists them in full under
 * References.
 *
 * <p>Kalmukov et al.: Y. Kalmukov, M. Marinov, T. Mladenova, I. Valova, "Analysis and
 * Experimental Study of HDFS Performance", TEM Journal 10(2), 2021 (the I/O factors study; 9
 * DataNodes, 1 Gbit/s, Hadoop 3.0.0). Kim: H.-G. Kim, "Effects of Design Factors of HDFS on I/O
 * Performance", Journal of Computer Science 14(3), 2018 (64 DataNodes; its figures carry no
 * numbers in the text). Shvachko: K. V. Shvachko, "HDFS Scalability: The Limits to Growth",
 * ;login: 35(2), 2010.
 */
final class StudyFigures {
  private StudyFigures() {}

  /** Kalmukov et al., Figures 3 and 8: one file of 1..512 GB, doubling. */
  static final List<Double> SIZES_GB = List.of(1d, 2d, 4d, 8d, 16d, 32d, 64d, 128d, 256d, 512d);

  /**
   * Kalmukov et al., Figure 8 (the only table of Figures 3, 8 and 9 the text keeps): download
   * seconds at replication 3 (the setting of Figure 3) and 6.
   */
  static final List<Double> READ_R3 = List.of(12d, 21d, 41d, 78d, 154d, 317d, 639d, 1320d,
      2809d, 6268d);
  static final List<Double> READ_R6 = List.of(13d, 23d, 40d, 79d, 154d, 311d, 698d, 1488d,
      2649d, 6573d);

  /** Kalmukov et al., Figures 11-12: the same bytes (16..256 GB) in three layouts, seconds. */
  static final List<Double> LAYOUT_GB = List.of(16d, 32d, 64d, 128d, 256d);
  static final List<Double> ONE_FILE = List.of(171d, 337d, 674d, 1393d, 2883d);
  static final List<Double> FILES_102MB = List.of(181d, 373d, 861d, 1937d, 3895d);
  static final List<Double> FILES_10MB = List.of(396d, 788d, 1621d, 2997d, 4974d);

  /** Kalmukov et al.'s files near the block size: 102.4 MB against 128 MB blocks. */
  static final double NEAR_BLOCK = 0.8;

  /** Kim, Figure 3: "about 70 to 80 MB/s regardless of the number of data nodes". */
  static final double DATANODE_SPREAD = 80d / 70d;

  /** Shvachko: bytes per NameNode object, blocks per file, and 1 GB of RAM ~ 1 PB of disk. */
  static final int OBJECT_BYTES = 200;
  static final double BLOCKS_PER_FILE = 1.5;

  /** The mean ratio of each value to the one before it (2 when time is linear in size). */
  static double meanStepRatio(List<Double> values) {
    double sum = 0;
    for (int i = 1; i < values.size(); i++) {
      sum += values.get(i) / values.get(i - 1);
    }
    return sum / (values.size() - 1);
  }

  /**
   * The exponent b of time ~ size^b fitted by least squares on logarithms: 1 when time is
   * linear in size, below 1 when a fixed cost dominates the small sizes.
   */
  static double exponent(List<Double> sizes, List<Double> times) {
    int n = sizes.size();
    double mx = 0;
    double my = 0;
    for (int i = 0; i < n; i++) {
      mx += Math.log(sizes.get(i)) / n;
      my += Math.log(times.get(i)) / n;
    }
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      double dx = Math.log(sizes.get(i)) - mx;
      sxy += dx * (Math.log(times.get(i)) - my);
      sxx += dx * dx;
    }
    return sxy / sxx;
  }

  /** Mean of a[i] / b[i]. */
  static double meanRatio(List<Double> a, List<Double> b) {
    double sum = 0;
    for (int i = 0; i < a.size(); i++) {
      sum += a.get(i) / b.get(i);
    }
    return sum / a.size();
  }
}
