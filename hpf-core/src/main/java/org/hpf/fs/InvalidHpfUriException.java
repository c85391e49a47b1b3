package org.hpf.fs;

import java.net.URI;
import org.hpf.HpfException;

/**
 * An {@code hpf://} URI whose authority does not name a file system. An {@code IOException}, not
 * an {@code IllegalArgumentException}: FsShell answers the latter with its whole usage text.
 */
public class InvalidHpfUriException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error about a URI.
   *
   * @param hpf the URI
   * @param problem what is wrong with it
   */
  public InvalidHpfUriException(URI hpf, String problem) {
    super(hpf + ": " + problem + "; expected hpf://<scheme>-<authority>/<archive path>, such as "
        + "hpf://hdfs-namenode:8020/data/logs.hpf or hpf://file-/tmp/logs.hpf (or hpf:///"
        + "data/logs.hpf for fs.defaultFS)");
  }

  /**
   * An error about a URI.
   *
   * @param hpf the URI
   * @param problem what is wrong with it
   * @param cause the error that showed it
   */
  public InvalidHpfUriException(URI hpf, String problem, Throwable cause) {
    this(hpf, problem);
    initCause(cause);
  }
}
