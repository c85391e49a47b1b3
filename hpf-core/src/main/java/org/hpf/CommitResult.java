package org.hpf;

/**
 * What one commit published.
 *
 * @param generation the generation the commit published; readers opened from now on read it
 * @param filesAdded members added under names the archive did not have
 * @param filesReplaced members whose bytes were replaced
 * @param filesDeleted members deleted
 * @param bytesWritten bytes written to new part files (entries, not index files)
 * @param fileCount members in the archive after the commit
 * @param millis how long the change took, from its first member to the end of the commit
 * @param hdfs what the HDFS integration used and skipped, and why (storage policy of the parts,
 *     cache directives added and removed), in one line; on other file systems, that it was
 *     skipped
 * @param warnings what an operator should know about a commit that succeeded: cleanup after
 *     the commit point that failed and is left to the next writer (removing the previous
 *     generation's files, the journal), and what the HDFS integration could not do (a cache pool
 *     that could not be created, parts that did not land on RAM disks); empty when all went as
 *     asked
 */
public record CommitResult(long generation, long filesAdded, long filesReplaced,
    long filesDeleted, long bytesWritten, long fileCount, long millis, String hdfs,
    java.util.List<String> warnings) {}
