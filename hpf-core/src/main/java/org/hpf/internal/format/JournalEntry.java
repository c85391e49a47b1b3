package org.hpf.internal.format;

/** One journal record: a merged member's name, index record and modification time. */
public record JournalEntry(String name, IndexRecord record, long mtimeMillis) {}
