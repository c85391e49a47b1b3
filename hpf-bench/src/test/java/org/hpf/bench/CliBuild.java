package org.hpf.bench;

import java.io.File;
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

  /** Waits until hpf-cli below {@code root} is packaged; fails after 20 minutes. */
  public static void awaitPackaged(File root) throws InterruptedException {
    File marker = new File(root, "hpf-cli/target/packaged");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(WAIT_MINUTES);
    while (!marker.exists()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("hpf-cli is not packaged (no " + marker + " after "
            + WAIT_MINUTES + " minutes): run mvn package in hpf-cli first");
      }
      Thread.sleep(1000);
    }
  }
}
