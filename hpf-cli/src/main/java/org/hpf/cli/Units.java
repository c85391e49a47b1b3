package org.hpf.cli;

import java.util.Locale;

/** Human-readable numbers for the summaries: binary byte units, seconds, rates. */
final class Units {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

  private Units() {}

  /** {@code 1536} -> {@code "1.5 KiB"}; below 1 KiB in plain bytes. */
  static String bytes(double bytes) {
    int unit = 0;
    while (Math.abs(bytes) >= 1024 && unit < UNITS.length - 1) {
      bytes /= 1024;
      unit++;
    }
    return unit == 0 ? String.format(Locale.ROOT, "%.0f B", bytes)
        : String.format(Locale.ROOT, "%.1f %s", bytes, UNITS[unit]);
  }

  /** Milliseconds as {@code "842 ms"} or {@code "3.21 s"}. */
  static String millis(double millis) {
    return millis < 1000 ? String.format(Locale.ROOT, "%.0f ms", millis)
        : String.format(Locale.ROOT, "%.2f s", millis / 1000);
  }

  /** Bytes per second over a duration, e.g. {@code "81.3 MiB/s"}. */
  static String rate(double bytes, double millis) {
    return millis <= 0 ? "-" : bytes(bytes * 1000 / millis) + "/s";
  }

  /** A count with thousands separators: {@code 12,345}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
