package org.hpf.bench.jmh;

import java.io.File;
import java.util.List;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the microbenchmarks of this package with JMH and writes JMH's JSON (which carries the
 * JVM, JMH version and options of every benchmark). Forks use this JVM's class path.
 */
public final class JmhLauncher {
  private JmhLauncher() {}

  public static void run(List<String> include, String out, boolean quick) throws Exception {
    File file = new File(out).getAbsoluteFile();
    if (file.getParentFile() != null) {
      file.getParentFile().mkdirs();
    }
    ChainedOptionsBuilder options = new OptionsBuilder()
        .result(file.getPath())
        .resultFormat(ResultFormatType.JSON);
    if (include.isEmpty()) {
      options.include(JmhLauncher.class.getPackageName() + ".*Bench");
    } else {
      include.forEach(options::include);
    }
    if (quick) {
      options.forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(300))
          .measurementIterations(2).measurementTime(TimeValue.milliseconds(300));
    }
    new Runner(options.build()).run();
  }
}
