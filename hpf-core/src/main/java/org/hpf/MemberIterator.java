package org.hpf;

import java.io.Closeable;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The members of a listing, in increasing UTF-8 byte order of their names, streamed from the
 * archive's names files: memory does not grow with the number of members. It closes itself when
 * {@link #hasNext()} returns false; close it when stopping early.
 */
public interface MemberIterator extends RemoteIterator<MemberStatus>, Closeable {}
