package org.hpf.internal.index;

import org.hpf.internal.format.NameHash;

/**
 * An order-preserving minimal perfect hash function over a bucket's sorted hashes, as one codec
 * stores it: the rank of each of the bucket's hashes, and an arbitrary number for other hashes.
 */
interface RankFunction {
  /** The record number of a hash of the bucket; for other hashes, any number. */
  long rankOf(NameHash hash);

  /** Bits the function occupies in memory. */
  long numBits();

  /** The codec's bytes of the function, without fingerprints. */
  byte[] toBytes();
}
