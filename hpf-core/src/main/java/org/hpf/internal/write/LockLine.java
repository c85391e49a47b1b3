package org.hpf.internal.write;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line in {@code _lock}: who holds the lock, for people ({@code append by alice@host (pid
 * 4711) since 2026-01-05T08:00:00Z}), then the fields that decide about it: the holder's
 * unique token, the boot id and pid namespace its pid belongs to (each left out when unknown),
 * and the most part files the holder writes at once. Lines of earlier versions have only some
 * of them.
 *
 * @param pid the holder's process id, or -1 if the line has none
 * @param token the holder's token, or null
 * @param space where the pid means one process (parts null when not recorded)
 * @param lanes the most part files the holder writes at once, or -1 if the line does not say
 */
record LockLine(long pid, String token, ProcessSpace space, int lanes) {
  private static final Pattern PID = Pattern.compile(" by \\S+ \\(pid (\\d+)\\)");

  /** The line for a holder. */
  static String format(String holder, String token, ProcessSpace space, int lanes) {
    return holder + "; token " + token
        + (space.bootId() == null ? "" : "; boot " + space.bootId())
        + (space.pidNamespace() == null ? "" : "; pidns " + space.pidNamespace())
        + "; lanes " + lanes + "\n";
  }

  static LockLine parse(String line) {
    Matcher pid = PID.matcher(line);
    String lanes = field(line, "lanes");
    return new LockLine(pid.find() ? Long.parseLong(pid.group(1)) : -1, field(line, "token"),
        new ProcessSpace(field(line, "boot"), field(line, "pidns")),
        lanes != null && lanes.matches("\\d{1,9}") ? Integer.parseInt(lanes) : -1);
  }

  /** Whether the holder is this process: its pid, where that pid means this process. */
  boolean isThisProcess() {
    return pid == ProcessHandle.current().pid() && space.sameAs(ProcessSpace.current());
  }

  /** The part of a lock line for people: who holds it, since when. */
  static String forPeople(String line) {
    int fields = line.indexOf("; token ");
    return fields < 0 ? line : line.substring(0, fields);
  }

  private static String field(String line, String name) {
    Matcher value = Pattern.compile("; " + name + " ([^;\\s]+)").matcher(line);
    return value.find() ? value.group(1) : null;
  }
}
