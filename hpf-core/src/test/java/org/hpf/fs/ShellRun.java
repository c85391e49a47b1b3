package org.hpf.fs;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;

/** What one run of Hadoop's FsShell, unmodified, wrote and returned. */
record ShellRun(int code, byte[] outBytes, String err) {
  /** Runs FsShell with {@code args}, capturing the bytes it writes to stdout and stderr. */
  static synchronized ShellRun of(Configuration conf, String... args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
      code = ToolRunner.run(new FsShell(new Configuration(conf)), args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new ShellRun(code, o.toByteArray(), e.toString(StandardCharsets.UTF_8));
  }

  String out() {
    return new String(outBytes, StandardCharsets.UTF_8);
  }
}
