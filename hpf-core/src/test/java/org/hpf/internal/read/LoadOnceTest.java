package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Values loaded once, some of them ahead of any request, and closed whatever their state. */
class LoadOnceTest {
  private final ExecutorService ahead = Executors.newSingleThreadExecutor();
  private final ExecutorService caller = Executors.newSingleThreadExecutor();

  /** A value that knows whether it was closed. */
  private static final class Value implements Closeable {
    final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @AfterEach
  void stop() {
    ahead.shutdownNow();
    caller.shutdownNow();
  }

  @Test
  void aRequestTakesTheValueLoadedAheadWithoutLoadingAgain() throws Exception {
    LoadOnce<Integer, Value> values = new LoadOnce<>();
    AtomicInteger loads = new AtomicInteger();
    Value value = new Value();
    CountDownLatch release = new CountDownLatch(1);
    values.loadAhead(7, () -> {
      loads.incrementAndGet();
      await(release);
      return value;
    }, ahead);
    Future<Value> request = caller.submit(() -> values.get(7,
        () -> {
          loads.incrementAndGet();
          return new Value();
        }));
    release.countDown();
    assertSame(value, request.get(10, TimeUnit.SECONDS));
    assertEquals(1, loads.get());
  }

  @Test
  void aLoadAheadThatFailedIsLoadedAgainByTheRequest() throws Exception {
    LoadOnce<Integer, Value> values = new LoadOnce<>();
    values.loadAhead(7, () -> {
      throw new IOException("refused on the background thread");
    }, ahead);
    ahead.submit(() -> {}).get(10, TimeUnit.SECONDS); // the load ahead has failed
    Value value = new Value();
    assertSame(value, values.get(7, () -> value));
  }

  @Test
  void aRequestsOwnFailureIsThrownAndForgotten() throws Exception {
    LoadOnce<Integer, Value> values = new LoadOnce<>();
    IOException e = assertThrows(IOException.class, () -> values.get(7, () -> {
      throw new IOException("no such part");
    }));
    assertEquals("no such part", e.getMessage());
    Value value = new Value();
    assertSame(value, values.get(7, () -> value));
  }

  @Test
  void closeWaitsForALoadAheadAndClosesItsValue() throws Exception {
    LoadOnce<Integer, Value> values = new LoadOnce<>();
    Value value = new Value();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    values.loadAhead(7, () -> {
      started.countDown();
      await(release);
      return value;
    }, ahead);
    started.await(10, TimeUnit.SECONDS);
    Future<?> closing = caller.submit(() -> {
      values.closeAll();
      return null;
    });
    Thread.sleep(50);
    assertEquals(false, closing.isDone(), "close waits for the load still running");
    release.countDown();
    closing.get(10, TimeUnit.SECONDS);
    assertTrue(value.closed.get(), "the value opened ahead is closed, not leaked");
  }

  @Test
  void aLoadAheadOfAValueLoadedAlreadyDoesNothing() throws Exception {
    LoadOnce<Integer, Value> values = new LoadOnce<>();
    Value value = new Value();
    values.get(7, () -> value);
    values.loadAhead(7, () -> {
      throw new AssertionError("loaded twice");
    }, ahead);
    ahead.submit(() -> {}).get(10, TimeUnit.SECONDS);
    assertSame(value, values.get(7, Value::new));
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }
}
