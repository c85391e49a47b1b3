package org.hpf.internal.read;

import org.hpf.internal.format.Codec;

/**
 * What a reader tells about a member without reading its bytes; {@code access} is its access
 * class (0: not recorded).
 */
public record EntryStatus(String name, long length, long storedLength, long mtimeMillis,
    Codec codec, int part, long partOffset, int access) {}
