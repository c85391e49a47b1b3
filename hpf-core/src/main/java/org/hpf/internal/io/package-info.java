/**
 * The storage seam every read and write goes through: a Hadoop file system, or a test's faulty one.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.io;
