package org.hpf;

import java.io.IOException;
import java.io.InputStream;

/**
 * One name of a batch read and what the archive has for it: the member's status and bytes,
 * every byte checked against its checksums before it is handed out, or the news that the
 * archive has no such member. A name's failure is its own: a missing name or a damaged member
 * does not stop the batch unless the handler lets the exception out of its call.
 *
 * <p>Valid during the handler's call: read its stream there. The array {@link #bytes()}
 * returns is the caller's to keep.
 */
public interface BatchMember {
  /**
   * The name, as given (or as listed).
   *
   * @return the name
   */
  String name();

  /**
   * Whether the archive has a member of this name.
   *
   * @return false when it has none: then every other call throws
   *     {@link FileNotInArchiveException}
   */
  boolean found();

  /**
   * The member's status, from its checked entry header.
   *
   * @return its status
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws CorruptArchiveException if its entry is damaged
   * @throws IOException if the file system failed to read it
   */
  MemberStatus status() throws IOException;

  /**
   * The member's bytes, checked as {@link ArchiveReader#get} checks them: its entry header
   * against its index record and name, its chunk checksums and its CRC32C. A member too large
   * for the batch's window is read now, and as {@code get}, fails when over 2 GiB: read it with
   * {@link #open()}.
   *
   * @return its bytes
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws CorruptArchiveException if it is damaged (naming the member, as a get does)
   * @throws IOException if the file system failed to read it
   */
  byte[] bytes() throws IOException;

  /**
   * A stream of the member's bytes: over the checked bytes in memory, or, for a member too
   * large for the batch's window, read now as {@link ArchiveReader#open} reads it.
   *
   * @return a stream of its bytes; close it
   * @throws FileNotInArchiveException if the archive has no such member
   * @throws CorruptArchiveException if it is damaged
   * @throws IOException if the file system failed to read it
   */
  InputStream open() throws IOException;
}
