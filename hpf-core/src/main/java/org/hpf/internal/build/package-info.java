/**
 * The MapReduce build's engine: listing, merge tasks and the staged commit behind {@link
 * org.hpf.mapreduce.ArchiveJob}.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.build;
