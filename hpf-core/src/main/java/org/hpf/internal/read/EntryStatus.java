package org.hpf.internal.read;

import org.hpf.internal.format.Codec;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.IndexRecord;

/**
 * What a reader tells about a member without reading its bytes; {@code access} is its access
 * class (0: not recorded).
 */
public record EntryStatus(String name, long length, long storedLength, long mtimeMillis,
    Codec codec, int part, long partOffset, int access) {

  /** The status an entry's header (checked against its record) gives. */
  static EntryStatus of(EntryHeader header, IndexRecord record) {
    return new EntryStatus(header.name(), header.originalLength(), header.storedLength(),
        header.mtimeMillis(), header.codec(), record.part(), record.offset(), record.access());
  }
}
