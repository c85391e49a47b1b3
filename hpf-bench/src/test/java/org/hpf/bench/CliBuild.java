package org.hpf.bench;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

/**
 * The hpf-cli build that bin/hpf runs. Maven builds hpf-cli beside hpf-bench (two modules at a
 * time), so a test that runs bin/hpf waits until hpf-cli has been packaged: its build removes
 * {@code hpf-cli/target/packaged} when it starts and makes it once its jar and libraries are in
 * place.
 */
public final class CliBuild {
  private static final long WAIT_MINUTES = 20;

  private CliBuild() {}

  /**
   * Waits until hpf-cli below {@code root} is packaged; fails after 20 minutes, or as soon as one
   * of hpf-cli's tests has failed, since its build then stops before packaging.
   */
  public static void awaitPackaged(File root) throws InterruptedException, IOException {
    File marker = new File(root, "hpf-cli/target/packaged");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(WAIT_MINUTES);
    while (!marker.exists()) {
      String failed = failedTestReport(new File(root, "hpf-cli/target/surefire-reports"));
      if (failed != null) {
        throw new AssertionError("hpf-cli will not be packaged: its test failed (" + failed + ")");
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("hpf-cli is not packaged (no " + marker + " after "
            + WAIT_MINUTES + " minutes): run mvn package in hpf-cli first");
      }
      Thread.sleep(1000);
    }
  }

  /**
   * The name of a report of a failed test in {@code reports} written since this JVM started (an
   * older one is a previous build's), or null.
   */
  private static String failedTestReport(File reports) throws IOException {
    long started = ManagementFactory.getRuntimeMXBean().getStartTime();
    File[] files = reports.listFiles(
        (d, name) -> name.endsWith(".txt") && new File(d, name).lastModified() >= started);
    if (files == null) {
      return null;
    }
    for (File report : files) {
      String text = Files.readString(report.toPath());
      if (text.contains("<<< FAILURE!") || text.contains("<<< ERROR!")) {
        return report.getName();
      }
    }
    return null;
  }
}
