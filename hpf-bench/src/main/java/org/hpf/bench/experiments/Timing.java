package org.hpf.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import org.hpf.bench.Results;

/** Wall-clock timing (System.nanoTime) and the median of repetitions. */
final class Timing {
  private Timing() {}

  /** Something timed that may do I/O. */
  interface Timed {
    void run() throws Exception;
  }

  /** One repetition: its own set-up and clean-up, around a timed region it returns. */
  interface Repetition {
    double seconds(int rep) throws Exception;
  }

  static double seconds(Timed timed) throws Exception {
    long start = System.nanoTime();
    timed.run();
    return (System.nanoTime() - start) / 1e9;
  }

  static List<Double> repeat(int reps, Repetition repetition) throws Exception {
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < reps; i++) {
      values.add(repetition.seconds(i));
    }
    return values;
  }

  /** The median (nearest rank: of two values, the lower). */
  static double median(List<Double> values) {
    return Results.percentile(values.stream().mapToDouble(Double::doubleValue).sorted()
        .toArray(), 0.5);
  }
}
