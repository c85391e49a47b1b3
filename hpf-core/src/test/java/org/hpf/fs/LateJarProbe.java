package org.hpf.fs;

import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What spark-submit does with {@code --jars}, in a JVM of a Hadoop client without hpf (run by
 * {@link HadoopJarIT}): Hadoop reads its FileSystem service files first, then a new class
 * loader gets the hpf jar and becomes the thread's context loader, as Spark's does. Prints
 * {@code without: <what resolving hpf:// throws>} and {@code with: <the member's bytes>}, the
 * latter with {@code fs.hpf.impl} set as {@code --conf spark.hadoop.fs.hpf.impl=...} sets it.
 * It refers to no hpf class, so it runs where none is on the class path.
 *
 * <p>Arguments: the hpf jar, the hpf:// path of a member.
 */
public final class LateJarProbe {
  private LateJarProbe() {}

  public static void main(String[] args) throws Exception {
    // Hadoop loads the service files of every FileSystem once per JVM, here: no hpf among them.
    FileSystem.getFileSystemClass("file", new Configuration());
    URI member = URI.create(args[1]);
    try (URLClassLoader jars = new URLClassLoader(new URL[] {new File(args[0]).toURI().toURL()},
        LateJarProbe.class.getClassLoader())) {
      Thread.currentThread().setContextClassLoader(jars);
      try {
        FileSystem.newInstance(member, new Configuration()).close();
        System.out.println("without: resolved");
      } catch (Exception e) {
        System.out.println("without: " + e.getClass().getName());
      }
      Configuration conf = new Configuration();
      conf.set("fs.hpf.impl", "org.hpf.fs.HpfFileSystem");
      try (FileSystem fs = FileSystem.newInstance(member, conf);
          InputStream in = fs.open(new Path(member))) {
        System.out.print("with: " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
  }
}
