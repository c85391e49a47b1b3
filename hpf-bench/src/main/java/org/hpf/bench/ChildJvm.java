package org.hpf.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** The start of the command line of a child JVM the benchmark runs. */
public final class ChildJvm {
  private ChildJvm() {}

  /** This JVM's java, then {@link #options}. */
  public static List<String> command() {
    List<String> command = new ArrayList<>();
    command.add(new File(System.getProperty("java.home"), "bin/java").getAbsolutePath());
    command.addAll(options());
    return command;
  }

  /**
   * The system properties, module options and JIT tier this JVM was given: the child runs as
   * its parent does (a test fork limited to the client compiler spends far less CPU compiling,
   * in the child too).
   */
  public static List<String> options() {
    List<String> options = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-D") || arg.startsWith("--add-opens")
          || arg.startsWith("--add-exports") || arg.startsWith("-XX:TieredStopAtLevel=")) {
        options.add(arg);
      }
    }
    return options;
  }
}
