/**
 * The read path: lookups, entry reads and checks, listings, verification.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.read;
