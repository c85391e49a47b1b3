/**
 * MapReduce: an archive's members as a job's input ({@link org.hpf.mapreduce.HpfInputFormat}),
 * and a job that builds an archive from files already on a cluster
 * ({@link org.hpf.mapreduce.ArchiveJob}).
 */
package org.hpf.mapreduce;
