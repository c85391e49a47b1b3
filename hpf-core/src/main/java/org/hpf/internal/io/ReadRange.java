package org.hpf.internal.io;

/** Bytes {@code [position, position + buffer.length)} of a file, read into {@code buffer}. */
public record ReadRange(long position, byte[] buffer) {}
