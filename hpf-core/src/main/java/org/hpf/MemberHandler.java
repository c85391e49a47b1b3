package org.hpf;

import java.io.IOException;

/**
 * Receives the members of a batch read, on the thread that called it, one at a time: a handler
 * needs no locking of its own. An exception it throws stops the batch (the reads under way
 * finish first) and is thrown by the batch call.
 */
@FunctionalInterface
public interface MemberHandler {
  /**
   * Takes one member.
   *
   * @param member the member, or the news that its name is not in the archive
   * @throws IOException to stop the batch with it
   */
  void handle(BatchMember member) throws IOException;
}
