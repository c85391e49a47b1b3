package org.hpf.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.hpf.internal.build.JobDriver;
import org.hpf.internal.format.Manifest;

/** The summary of an archive built or grown by a MapReduce job. */
final class JobSummary {
  private JobSummary() {}

  static void print(PrintStream out, String verb, JobDriver.Result r) {
    Manifest m = r.manifest();
    out.println(verb + " " + r.archive() + ": generation " + m.generation() + ", by job "
        + r.jobId());
    out.printf(Locale.ROOT, "  files          %s added; %s in the archive%n",
        Units.count(r.files()), Units.count(m.fileCount()));
    out.printf(Locale.ROOT, "  original       %s (%s bytes)%n", Units.bytes(r.bytes()),
        Units.count(r.bytes()));
    out.printf(Locale.ROOT, "  map tasks      %d; %d part(s) in the archive%n", r.maps(),
        m.parts().size());
    out.printf(Locale.ROOT, "  time           %s (listing %s, job %s)%n",
        Units.millis(r.totalMillis()), Units.millis(r.listingMillis()),
        Units.millis(r.jobMillis()));
    out.printf(Locale.ROOT, "  throughput     %s, %s files/s%n",
        Units.rate(r.bytes(), r.totalMillis()),
        r.totalMillis() <= 0 ? "-" : Units.count(r.files() * 1000 / r.totalMillis()));
    HpfSubcommand.printLinks(out, r.links());
    HpfSubcommand.printHdfs(out, r.hdfs());
  }

  /** What failed after the job's commit: the archive holds the generation all the same. */
  static void printWarnings(PrintStream err, JobDriver.Result r) {
    r.warnings().forEach(warning -> err.println("hpf: warning: " + warning));
  }
}
