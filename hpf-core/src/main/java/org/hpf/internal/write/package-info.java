/**
 * The write path: merging members into parts, the journal, the commit of a generation, recovery
 * and compaction.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.write;
