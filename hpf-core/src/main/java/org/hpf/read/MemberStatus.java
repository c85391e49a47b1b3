package org.hpf.read;

import org.hpf.format.Codec;

/** What {@code stat} tells about a member without reading its bytes. */
public record MemberStatus(String name, long length, long storedLength, long mtimeMillis,
    Codec codec, int part, long partOffset) {}
