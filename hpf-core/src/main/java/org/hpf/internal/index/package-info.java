/**
 * The index: extendible hashing of buckets and each bucket's order-preserving minimal perfect hash
 * function.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.index;
