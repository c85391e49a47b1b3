/**
 * hpf's public API: archives of many small files on any Hadoop file system, each member found
 * with a perfect hash in at most two positioned reads.
 *
 * <p>Start at {@link org.hpf.HpfArchive}: it opens an {@link org.hpf.ArchiveReader} (get, open,
 * exists, stat, list, block locations) and an {@link org.hpf.ArchiveWriter} (add, replace,
 * delete, compact; commit or abort). {@link org.hpf.ArchiveSettings},
 * {@link org.hpf.WriteSettings} and {@link org.hpf.ReadSettings} say how, each also from a
 * Hadoop {@code Configuration}. Every error about an archive is an
 * {@link org.hpf.HpfException}.
 *
 * <p>Also public: {@link org.hpf.fs.HpfFileSystem} ({@code hpf://}, the archives as a read-only
 * Hadoop file system), {@link org.hpf.mapreduce.HpfInputFormat} (members as MapReduce input)
 * and {@link org.hpf.mapreduce.ArchiveJob} (building an archive with a MapReduce job). Nothing
 * under {@code org.hpf.internal} is API: it may change in any release.
 */
package org.hpf;
