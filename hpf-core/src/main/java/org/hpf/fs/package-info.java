/**
 * {@code hpf://}: archives as a read-only Hadoop {@link org.apache.hadoop.fs.FileSystem}, for
 * FsShell, distcp, Spark and any code that reads paths. Register it with
 * {@code fs.hpf.impl = org.hpf.fs.HpfFileSystem}.
 */
package org.hpf.fs;
