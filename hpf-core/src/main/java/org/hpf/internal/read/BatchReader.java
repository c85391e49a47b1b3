package org.hpf.internal.read;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hpf.BatchRead;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.Codec;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.NameEntry;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ReadRange;

/**
 * Reads many members at once. Names are looked up {@value #LOOKUP_NAMES} at a time
 * ({@link HpfReader#recordsOfHashes}: records close in a bucket are read together); their
 * entries are cut into slices that fit the window, and inside a slice entries of one part that
 * lie close are read with one positioned read (a run), runs in parallel on a few threads, or
 * with the file system's vectored read where it has a native one. Each member is checked as a
 * get checks it before it is handed out, on the caller's thread, one at a time.
 *
 * <p>Memory: runs are started only while the bytes read and not yet handed out (counted from
 * the first byte of a run to its last, gaps included, and the original bytes of compressed
 * members) stay within the window. A member that alone would not fit is not read ahead: it is
 * handed out in its turn and read when its bytes are asked for, as a get or an open reads it.
 */
public final class BatchReader {
  /** Names looked up together. */
  static final int LOOKUP_NAMES = 4096;
  /** A run is not extended past this size, so that a dense slice still reads in parallel. */
  static final int MAX_RUN_BYTES = 1 << 20;
  /** Entries larger than this never fit a byte array: they are read when asked for. */
  private static final long MAX_IN_MEMORY = Integer.MAX_VALUE - 64;

  /** How runs are read. */
  public enum RangeReads {
    /** The file system's vectored read where it is native, else parallel positioned reads. */
    AUTO,
    /** One positioned read per run, runs in parallel. */
    PARALLEL,
    /** Hadoop's vectored read, one call per part and slice, even where it is not native. */
    VECTORED
  }

  /**
   * How a batch reads.
   *
   * @param windowBytes bytes read and not yet handed out, at most
   * @param gapBytes bytes between two entries of one part read rather than skipped
   * @param threads runs read at once, at most
   * @param callerOrder hand members out in the order of the names, else as they arrive
   * @param rangeReads how runs are read
   */
  public record Settings(long windowBytes, long gapBytes, int threads, boolean callerOrder,
      RangeReads rangeReads) {
    /** The API's settings, runs read as {@link RangeReads#AUTO} chooses. */
    public static Settings of(BatchRead read) {
      return new Settings(read.windowBytes(), read.gapBytes(), read.threads(),
          read.callerOrder(), RangeReads.AUTO);
    }
  }

  /** Receives the members, on the caller's thread, one at a time. */
  @FunctionalInterface
  public interface Handler {
    void handle(BatchEntry entry) throws IOException;
  }

  private BatchReader() {}

  /**
   * Reads the members named, handing each to {@code handler}; returns when every name was
   * handed out, or throws what the handler or a lookup threw (the reads under way end first).
   */
  public static void read(HpfReader reader, Iterator<String> names, Settings settings,
      Handler handler) throws IOException {
    inChunks(names, settings, handler, (chunk, pool) -> new Batch(reader, chunk,
        reader.recordsOfHashes(chunk), settings, pool));
  }

  /**
   * Reads the members of a listing ({@code entries}, none a deletion), as {@link #read} reads
   * names: an entry that says where its member lies gives its record ({@link
   * HpfReader#recordsOfEntries}), so a directory is read without a lookup per member. The entry
   * read must still carry the member's name and pass every checksum.
   */
  public static void readListed(HpfReader reader, Iterator<NameEntry> entries,
      Settings settings, Handler handler) throws IOException {
    inChunks(entries, settings, handler, (chunk, pool) -> new Batch(reader,
        chunk.stream().map(NameEntry::name).toList(), reader.recordsOfEntries(chunk), settings,
        pool));
  }

  /** Makes the batch of one chunk of items. */
  @FunctionalInterface
  private interface BatchOf<T> {
    Batch of(List<T> chunk, ExecutorService pool) throws IOException;
  }

  private static <T> void inChunks(Iterator<T> items, Settings settings, Handler handler,
      BatchOf<T> batchOf) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), runnable -> {
      Thread thread = new Thread(runnable, "hpf-batch-read");
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<T> chunk = new ArrayList<>(LOOKUP_NAMES);
      while (hasNext(items)) {
        chunk.add(items.next());
        if (chunk.size() == LOOKUP_NAMES || !hasNext(items)) {
          batchOf.of(chunk, pool).run(handler);
          chunk.clear();
        }
      }
    } finally {
      stop(pool);
    }
  }

  private static boolean hasNext(Iterator<?> items) throws IOException {
    try {
      return items.hasNext();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Waits for the reads under way: none may outlive the call and the reader it reads. */
  private static void stop(ExecutorService pool) {
    pool.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** One name of a batch and, once there, what the batch has for it. */
  private static final class Item {
    final String name;
    final IndexRecord record;
    ArchiveInput part;
    Read read;
    volatile BatchEntry result;

    Item(String name, IndexRecord record) {
      this.name = name;
      this.record = record;
    }

    long cost() {
      return record.entryLength() + (record.codec() == Codec.RAW ? 0 : record.originalLength());
    }
  }

  /** Bytes of one part read by one positioned read: the entries of its items and the gaps. */
  private record Run(long position, int length, List<Item> items) {}

  /** Runs read by one task: one run, or all runs of one part in a slice (a vectored read). */
  private static final class Read {
    final ArchiveInput part;
    final List<Run> runs = new ArrayList<>();
    long bytes;
    int undelivered;

    Read(ArchiveInput part) {
      this.part = part;
    }

    void add(Run run) {
      runs.add(run);
      bytes += run.length();
      for (Item item : run.items()) {
        item.read = this;
        bytes += item.cost() - item.record.entryLength();
        undelivered++;
      }
    }
  }

  /** The names of one lookup, read and handed out. */
  private static final class Batch {
    private final HpfReader reader;
    private final Settings settings;
    private final ExecutorService pool;
    /** In the order members are handed out (the caller's, or by part and offset). */
    private final List<Item> order = new ArrayList<>();
    private final Deque<Read> toStart = new ArrayDeque<>();
    private final BlockingQueue<Read> done = new LinkedBlockingQueue<>();
    private long inFlight;

    /** @param records the names' records, in their order (null: not a member) */
    Batch(HpfReader reader, List<String> names, List<IndexRecord> records, Settings settings,
        ExecutorService pool) throws IOException {
      this.reader = reader;
      this.settings = settings;
      this.pool = pool;
      for (int i = 0; i < names.size(); i++) {
        order.add(new Item(names.get(i), records.get(i)));
      }
      if (!settings.callerOrder()) {
        // Missing names first, then by where the entries lie.
        order.sort(Comparator.comparing((Item item) -> item.record != null)
            .thenComparingInt(item -> item.record == null ? 0 : item.record.part())
            .thenComparingLong(item -> item.record == null ? 0 : item.record.offset()));
      }
      plan();
    }

    /** Cuts the members into slices that fit the window, and each slice into reads. */
    private void plan() throws IOException {
      List<Item> slice = new ArrayList<>();
      long sliceCost = 0;
      for (Item item : order) {
        if (!prepare(item)) {
          continue;
        }
        long cost = item.cost() + (slice.isEmpty() ? 0 : settings.gapBytes());
        if (!slice.isEmpty() && sliceCost + cost > settings.windowBytes()) {
          planSlice(slice);
          slice = new ArrayList<>();
          sliceCost = 0;
          cost = item.cost();
        }
        slice.add(item);
        sliceCost += cost;
      }
      planSlice(slice);
    }

    /**
     * Settles a member that needs no read now (missing, too large for the window, its part
     * unreadable); true when it is to be read.
     */
    private boolean prepare(Item item) throws IOException {
      if (item.record == null) {
        item.result = BatchEntry.missing(item.name, reader.location());
        return false;
      }
      if (item.cost() > settings.windowBytes() || item.cost() > MAX_IN_MEMORY) {
        item.result = onDemand(item);
        return false;
      }
      try {
        item.part = reader.partOf(item.record, item.name);
        return true;
      } catch (IOException e) {
        item.result = BatchEntry.failed(item.name, e);
        return false;
      }
    }

    /** A member read when asked: its header is checked now, so its status is known. */
    private BatchEntry onDemand(Item item) throws IOException {
      try {
        return BatchEntry.onDemand(reader, item.record,
            reader.checkedStat(item.record, item.name));
      } catch (IOException e) {
        return BatchEntry.failed(item.name, e);
      }
    }

    private void planSlice(List<Item> slice) {
      if (slice.isEmpty()) {
        return;
      }
      List<Item> sorted = new ArrayList<>(slice);
      sorted.sort(Comparator.comparingInt((Item item) -> item.record.part())
          .thenComparingLong(item -> item.record.offset()));
      Read read = null;
      List<Item> run = new ArrayList<>();
      long runStart = 0;
      long runEnd = 0;
      for (Item item : sorted) {
        long start = item.record.offset();
        long end = start + item.record.entryLength();
        boolean joins = !run.isEmpty() && run.get(0).part == item.part
            && start - runEnd <= settings.gapBytes()
            && Math.max(end, runEnd) - runStart <= MAX_RUN_BYTES;
        if (!joins && !run.isEmpty()) {
          read = addRun(read, new Run(runStart, (int) (runEnd - runStart), run));
          run = new ArrayList<>();
        }
        if (run.isEmpty()) {
          runStart = start;
          runEnd = end;
        }
        run.add(item);
        runEnd = Math.max(runEnd, end);
      }
      read = addRun(read, new Run(runStart, (int) (runEnd - runStart), run));
      toStart.add(read);
    }

    /** Adds a run to the current read, or starts the next read with it. */
    private Read addRun(Read read, Run run) {
      ArchiveInput part = run.items().get(0).part;
      if (read != null && (read.part != part || !vectored(part))) {
        toStart.add(read);
        read = null;
      }
      if (read == null) {
        read = new Read(part);
      }
      read.add(run);
      return read;
    }

    private boolean vectored(ArchiveInput part) {
      return switch (settings.rangeReads()) {
        case AUTO -> part.readsVectored();
        case PARALLEL -> false;
        case VECTORED -> true;
      };
    }

    /** Hands every member out, starting reads as the window allows. */
    void run(Handler handler) throws IOException {
      int next = 0;
      int handed = 0;
      List<Item> ready = new ArrayList<>();
      for (Item item : order) {
        if (item.read == null) {
          ready.add(item);
        }
      }
      while (handed < order.size()) {
        startReads();
        if (settings.callerOrder()) {
          while (next < order.size() && order.get(next).result != null) {
            handOut(order.get(next++), handler);
            handed++;
          }
        } else {
          for (Item item : ready) {
            handOut(item, handler);
            handed++;
          }
          ready.clear();
        }
        if (handed < order.size()) {
          startReads(); // what was handed out made room
          Read read = awaitRead();
          if (!settings.callerOrder()) {
            for (Run run : read.runs) {
              ready.addAll(run.items());
            }
          }
        }
      }
    }

    private void startReads() {
      while (!toStart.isEmpty()
          && (inFlight == 0 || inFlight + toStart.peek().bytes <= settings.windowBytes())) {
        Read read = toStart.poll();
        inFlight += read.bytes;
        pool.execute(() -> {
          try {
            readRuns(read, vectored(read.part));
          } finally {
            done.add(read);
          }
        });
      }
    }

    private Read awaitRead() throws IOException {
      try {
        return done.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("batch read interrupted");
      }
    }

    /**
     * Reads the runs and settles each of their members. A run that fails to read (a DataNode
     * gone, a part cut short) is not the members' verdict: each is then read alone, as a get
     * reads it, and gets what that read met.
     */
    private void readRuns(Read read, boolean vectored) {
      List<ReadRange> ranges = new ArrayList<>(read.runs.size());
      for (Run run : read.runs) {
        ranges.add(new ReadRange(run.position(), new byte[run.length()]));
      }
      try {
        if (vectored) {
          read.part.readRanges(ranges);
        } else {
          for (ReadRange range : ranges) {
            read.part.readFully(range.position(), range.buffer(), 0, range.buffer().length);
          }
        }
      } catch (IOException | RuntimeException e) {
        for (Run run : read.runs) {
          run.items().forEach(this::readAlone);
        }
        return;
      }
      for (int i = 0; i < ranges.size(); i++) {
        ReadRange range = ranges.get(i);
        for (Item item : read.runs.get(i).items()) {
          int at = (int) (item.record.offset() - range.position());
          byte[] entry = Arrays.copyOfRange(range.buffer(), at,
              at + (int) item.record.entryLength());
          item.result = checked(item, entry);
        }
      }
    }

    /** The member of a whole entry in memory, checked as a get checks it. */
    private BatchEntry checked(Item item, byte[] entry) {
      try {
        EntryReader.Checked member = EntryReader.decode(entry, item.record, item.name,
            item.part.name());
        return BatchEntry.read(EntryStatus.of(member.header(), item.record), member.bytes());
      } catch (EntryReader.OtherName e) {
        return BatchEntry.failed(item.name, reader.notAMemberOr(e, item.name));
      } catch (CorruptArchiveException | RuntimeException e) {
        return BatchEntry.failed(item.name, e instanceof CorruptArchiveException corrupt
            ? corrupt : new CorruptArchiveException(item.part.name(), item.record.offset(),
                "entry of '" + item.name + "' cannot be read: " + e));
      }
    }

    private void readAlone(Item item) {
      try {
        byte[] bytes = reader.get(item.record, item.name);
        item.result = BatchEntry.read(reader.checkedStat(item.record, item.name), bytes);
      } catch (IOException e) {
        item.result = BatchEntry.failed(item.name, e);
      } catch (RuntimeException e) {
        item.result = BatchEntry.failed(item.name, new IOException(e));
      }
    }

    private void handOut(Item item, Handler handler) throws IOException {
      BatchEntry result = item.result;
      item.result = null; // the bytes are the handler's now: the batch keeps none of them
      try {
        handler.handle(result);
      } finally {
        Read read = item.read;
        if (read != null && --read.undelivered == 0) {
          inFlight -= read.bytes;
        }
      }
    }
  }
}
