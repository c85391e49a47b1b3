package org.hpf;

import java.io.FileNotFoundException;

/** The requested name is not a member of the archive's current generation. */
public class FileNotInArchiveException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  public FileNotInArchiveException(String archive, String name) {
    super("'" + name + "' is not in archive " + archive);
  }
}
