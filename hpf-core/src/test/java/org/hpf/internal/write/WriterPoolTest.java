package org.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A closed writer pool has no thread left: none can touch an archive after its cleanup. */
class WriterPoolTest {
  @Test
  void closeReturnsOnlyOnceEveryThreadHasEnded() throws Exception {
    for (int round = 0; round < 200; round++) {
      List<Thread> threads = new ArrayList<>();
      CountDownLatch started = new CountDownLatch(2);
      WriterPool pool = WriterPool.start(2);
      for (int i = 0; i < 2; i++) {
        pool.execute(() -> {
          synchronized (threads) {
            threads.add(Thread.currentThread());
          }
          started.countDown();
        });
      }
      started.await();
      pool.close();
      assertEquals(2, threads.size());
      for (Thread thread : threads) {
        assertTrue(!thread.isAlive(), "round " + round + ": " + thread + " outlived close");
        assertTrue(thread.getName().startsWith("hpf-writer-") && thread.isDaemon());
      }
    }
  }

  @Test
  void closeInterruptsRunningTasks() throws Exception {
    WriterPool pool = WriterPool.start(1);
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    pool.execute(() -> {
      running.countDown();
      try {
        Thread.sleep(60_000); // a task that would outlast the test unless close interrupts it
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    });
    running.await();
    pool.close();
    assertTrue(interrupted.get());
    assertTrue(pool.isTerminated());
  }
}
