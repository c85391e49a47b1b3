package org.hpf;

/**
 * A change refused, writing and deleting nothing, because the archive is on a store where hpf
 * cannot commit safely: one without an atomic rename that never replaces its target (an object
 * store such as S3, whose rename copies then deletes). Reading archives there works. The
 * message names the store, the capability it lacks, and what to do instead: write the archive
 * on HDFS or a local disk and copy it to the store.
 */
public class UnsupportedStoreException extends HpfException {
  private static final long serialVersionUID = 1L;

  /**
   * An error.
   *
   * @param message the store, what it lacks, and what to do instead
   */
  public UnsupportedStoreException(String message) {
    super(message);
  }
}
