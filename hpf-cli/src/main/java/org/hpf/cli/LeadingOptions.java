package org.hpf.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Lets the common options (Hadoop's generic options, {@code --verbose}, {@code --quiet}) come
 * before the subcommand too, as in {@code hpf --verbose ls a.hpf} or
 * {@code hpf -fs hdfs://nn:8020 ls /a.hpf}: they are moved to right after the subcommand's
 * name, where the subcommand parses them. Arguments are left as they are when something other
 * than a common option precedes the first subcommand name.
 */
final class LeadingOptions {
  /** Common options that take a value as the next argument (or after {@code =}). */
  private static final Set<String> WITH_VALUE = Set.of("-D", "--conf", "-fs", "--fs",
      "--principal", "--keytab", "--progress-interval");
  private static final Set<String> FLAGS = Set.of("--verbose", "-q", "--quiet");

  private LeadingOptions() {}

  /**
   * The arguments with the common options that precede a subcommand of {@code subcommands}
   * moved after its name.
   */
  static String[] moveAfterCommand(String[] args, Set<String> subcommands) {
    List<String> leading = new ArrayList<>();
    int i = 0;
    while (i < args.length && !subcommands.contains(args[i])) {
      String arg = args[i];
      if (FLAGS.contains(arg) || isAttachedValue(arg)) {
        leading.add(arg);
        i++;
      } else if (WITH_VALUE.contains(arg) && i + 1 < args.length) {
        leading.add(arg);
        leading.add(args[i + 1]);
        i += 2;
      } else {
        return args;
      }
    }
    if (leading.isEmpty() || i == args.length) {
      return args;
    }
    List<String> moved = new ArrayList<>(args.length);
    moved.add(args[i]);
    moved.addAll(leading);
    moved.addAll(Arrays.asList(args).subList(i + 1, args.length));
    return moved.toArray(new String[0]);
  }

  /** {@code -Dkey=value} or {@code --conf=file}: an option and its value in one argument. */
  private static boolean isAttachedValue(String arg) {
    if (arg.startsWith("-D") && arg.length() > 2) {
      return true;
    }
    int equals = arg.indexOf('=');
    return equals > 0 && WITH_VALUE.contains(arg.substring(0, equals));
  }
}
