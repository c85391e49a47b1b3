/**
 * Who may read an archive's files. HDFS checks permissions per file, so whoever can read a part
 * file or a names segment reads every member or name in it; the archive's directory therefore
 * gets access no broader than every member's source allowed. Not API.
 */
package org.hpf.internal.access;
