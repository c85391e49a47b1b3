package org.hpf.battery;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Random;

/**
 * The seed of the randomized tests: {@code -Dhpf.test.seed=N} replays a run; otherwise one random
 * seed per JVM, printed once and quoted in every assertion message that depends on it.
 */
final class Seeds {
  static final String PROPERTY = "hpf.test.seed";
  static final long BASE = initial();

  private Seeds() {}

  private static long initial() {
    String value = System.getProperty(PROPERTY);
    long seed = value != null && !value.isBlank() ? Long.parseLong(value.trim())
        : new SecureRandom().nextLong();
    System.out.println("hpf battery: -D" + PROPERTY + "=" + seed);
    return seed;
  }

  /** A random for one test, derived from the base seed and the test's name. */
  static Random random(String testName) {
    long h = 1125899906842597L;
    for (byte b : testName.getBytes(StandardCharsets.UTF_8)) {
      h = 31 * h + b;
    }
    return new Random(BASE ^ h);
  }

  /** The text quoted in messages to replay a failure. */
  static String describe() {
    return "[rerun with -D" + PROPERTY + "=" + BASE + "]";
  }
}
