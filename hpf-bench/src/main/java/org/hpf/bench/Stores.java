package org.hpf.bench;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.hpf.bench.systems.BenchSystem;

/** The systems of a run and where each keeps its store of N files on the cluster. */
final class Stores {
  private final List<BenchSystem> systems;
  private final Path base;

  Stores(List<BenchSystem> systems, Path base) {
    this.systems = List.copyOf(systems);
    this.base = base;
  }

  List<BenchSystem> systems() {
    return systems;
  }

  BenchSystem get(String name) {
    return systems.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }

  Path dirOf(int files) {
    return new Path(base, "n" + files);
  }

  /** Where {@code system} creates its store of {@code files} files. */
  Path destOf(BenchSystem system, int files) {
    if (system.name().equals("HDFS")) {
      // One upload serves every size (see HdfsFiles).
      return new Path(base, "hdfs/files");
    }
    String leaf = switch (system.name()) {
      case "HPF" -> "archive.hpf";
      case "MapFile" -> "data.map";
      case "SequenceFile" -> "data.seq";
      case "HAR" -> "har";
      default -> "files";
    };
    return new Path(dirOf(files), system.name().toLowerCase() + "/" + leaf);
  }
}
