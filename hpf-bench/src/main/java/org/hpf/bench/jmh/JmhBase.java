package org.hpf.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Owns the warm-up, forks and JVM flags of every microbenchmark: average time per operation in
 * nanoseconds, 2 forks of 5 warm-up and 5 measured 1-second iterations, a 1 GiB heap.
 * {@link JmhLauncher} can shorten all of it for a smoke run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public abstract class JmhBase {
  /** Deterministic names like those of the dataset generator. */
  static String[] names(int count) {
    String[] names = new String[count];
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < count; i++) {
      names[i] = String.format(java.util.Locale.ROOT, "app-%02d/2026-11-%02d/host-%02d/log-%07d.txt",
          random.nextInt(16), 1 + random.nextInt(28), random.nextInt(32), i);
    }
    return names;
  }
}
