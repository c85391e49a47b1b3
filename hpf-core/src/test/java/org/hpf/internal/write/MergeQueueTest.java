package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The queue of members handed to merge threads: it waits for every member before a failed
 * caller cleans up, stops at the first failure and reports the failure that caused the others.
 */
class MergeQueueTest {
  @Test
  void closeWaitsForEveryMemberHandedOut() throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch running = new CountDownLatch(1);
    try (WriterPool pool = WriterPool.start(2)) {
      MergeQueue queue = new MergeQueue(pool, 2);
      queue.submit(() -> {
        running.countDown();
        sleep(300); // still merging when close is called: close must wait it out
        done.set(true);
      });
      running.await();
      queue.close(); // as a caller leaving by an exception does
      assertTrue(done.get(), "close returned while a member was being merged");
    }
  }

  @Test
  void theFailureThatCausedTheOthersIsReported() throws Exception {
    IOException cause = new IOException("the part could not be sealed");
    CountDownLatch bothRunning = new CountDownLatch(2);
    CountDownLatch refused = new CountDownLatch(1);
    AtomicBoolean ranAfterTheFailure = new AtomicBoolean();
    try (WriterPool pool = WriterPool.start(2)) {
      MergeQueue queue = new MergeQueue(pool, 2);
      // A member refused for another's failure may be recorded before that failure is.
      queue.submit(() -> {
        bothRunning.countDown();
        await(bothRunning);
        refused.countDown();
        throw new AbandonedMergeException(cause);
      });
      queue.submit(() -> {
        bothRunning.countDown();
        await(refused);
        sleep(50); // lets the refusal be recorded first, the order this test is about
        throw cause;
      });
      IOException reported = assertThrows(IOException.class, queue::finish);
      assertSame(cause, reported);
      assertTrue(queue.failed());
      queue.submit(() -> ranAfterTheFailure.set(true));
      assertSame(cause, assertThrows(IOException.class, queue::finish));
      assertFalse(ranAfterTheFailure.get(), "a member was merged after a failure");
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IOException("timed out");
      }
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }
}
