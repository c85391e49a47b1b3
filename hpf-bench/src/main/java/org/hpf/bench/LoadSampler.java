package org.hpf.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The machine's load average, sampled every minute while a run lasts: figures measured beside
 * other work are slower and noisier, and a reader of the results must be able to tell.
 */
final class LoadSampler implements AutoCloseable {
  private final List<double[]> samples = new ArrayList<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "hpf-bench-load");
    t.setDaemon(true);
    return t;
  });
  private final long start = System.nanoTime();

  LoadSampler(long periodSeconds) {
    timer.scheduleAtFixedRate(this::sample, 0, periodSeconds, TimeUnit.SECONDS);
  }

  private synchronized void sample() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    if (load >= 0) {
      samples.add(new double[] {(System.nanoTime() - start) / 1e9, load});
    }
  }

  /** Every sample so far: seconds since the start, and the one-minute load average. */
  synchronized List<double[]> samples() {
    return List.copyOf(samples);
  }

  /** The lowest, median and highest load average sampled, or null before the first sample. */
  synchronized double[] summary() {
    if (samples.isEmpty()) {
      return null;
    }
    double[] loads = samples.stream().mapToDouble(s -> s[1]).sorted().toArray();
    return new double[] {loads[0], Results.percentile(loads, 0.5), loads[loads.length - 1]};
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
