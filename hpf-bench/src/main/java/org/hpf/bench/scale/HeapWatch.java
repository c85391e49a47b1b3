package org.hpf.bench.scale;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap a phase of work needed. Three figures: the live heap, sampled by a full collection
 * every {@link #SAMPLE_MILLIS} and once at the end, as the collector reports it right after each
 * (what the code keeps alive; the figure to compare across archive sizes); the most heap in use
 * right after any collection (live objects plus garbage a young collection does not reach, so it
 * follows the collector's thresholds); and the peak of heap in use at any moment (which the
 * collector lets grow towards the maximum before it collects).
 */
final class HeapWatch implements NotificationListener, AutoCloseable {
  private final Set<String> heapPools;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final AtomicLong maxAfterGc = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final AtomicLong maxLive = new AtomicLong();
  private final AtomicLong explicitCollections = new AtomicLong();
  private Thread sampler;

  static final long SAMPLE_MILLIS = 2000;
  private static final String EXPLICIT = "System.gc()";

  HeapWatch() {
    heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
        .collect(Collectors.toSet());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(this, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** What one phase used, in bytes. */
  record Usage(long maxLive, long maxAfterGc, long peakUsed, long collections) {}

  /** Starts a phase: collects what earlier phases left, then forgets what they used. */
  void reset() {
    System.gc();
    maxAfterGc.set(0);
    collections.set(0);
    maxLive.set(0);
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    sampler = new Thread(this::sample, "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  private void sample() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(SAMPLE_MILLIS);
        System.gc();
      }
    } catch (InterruptedException e) {
      // the phase ended
    }
  }

  /**
   * Ends a phase. A phase that needed no collection gets one now, so it reports at least what
   * it left alive.
   */
  Usage usage() {
    sampler.interrupt();
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long collected = collections.get();
    long explicit = explicitCollections.get();
    System.gc();
    awaitNotification(explicit);
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return new Usage(maxLive.get(), maxAfterGc.get(), peak, collected);
  }

  /** Notifications arrive on another thread, shortly after the collection. */
  private void awaitNotification(long explicitBefore) {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (explicitCollections.get() == explicitBefore && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  static long usedNow() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Heap in use after a full collection: the live set, as closely as the JVM tells it. */
  static long liveAfterFullGc() {
    long used = Long.MAX_VALUE;
    // A second collection catches what finalization or reference processing freed.
    for (int i = 0; i < 2; i++) {
      System.gc();
      used = Math.min(used, usedNow());
    }
    return used;
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
        .equals(notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
        (CompositeData) notification.getUserData());
    long after = 0;
    for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        MemoryUsage usage = pool.getValue();
        after += usage.getUsed();
      }
    }
    if (EXPLICIT.equals(info.getGcCause())) {
      // Read from the collection itself: reading the heap afterwards would also count what
      // busy threads allocated before this listener or a sampler got a core again.
      maxLive.accumulateAndGet(after, Math::max);
      explicitCollections.incrementAndGet();
    } else {
      collections.incrementAndGet();
    }
    maxAfterGc.accumulateAndGet(after, Math::max);
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(this);
      } catch (ListenerNotFoundException e) {
        // already gone
      }
    }
  }
}
