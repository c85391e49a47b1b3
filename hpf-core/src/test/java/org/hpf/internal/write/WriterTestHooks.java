package org.hpf.internal.write;

/** Writer options that tests of other packages need and the public builder does not offer. */
public final class WriterTestHooks {
  private WriterTestHooks() {}

  /**
   * Options of a writer that stores names which are a file and a directory at once
   * ({@code a/b} and {@code a/b/c}), as writers did before they refused them: for tests of
   * readers facing such archives.
   */
  public static WriterOptions withoutNestingCheck() {
    return WriterOptions.builder().skipNestingCheck().build();
  }
}
