/**
 * HDFS integration: storage policies, LazyPersist, centralized cache pinning, leases; skipped, and
 * said so, on other file systems.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.hdfs;
