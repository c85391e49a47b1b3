package org.hpf.internal.hdfs;

import org.hpf.HpfException;

/**
 * A cache pool name that HDFS refuses, or that hpf refuses since no listing could show it as it
 * is ({@link CachePoolName}): from the pool setting, or from the owner of an archive's directory.
 */
public final class InvalidCachePoolException extends HpfException {
  private static final long serialVersionUID = 1L;

  InvalidCachePoolException(String message) {
    super(message);
  }
}
