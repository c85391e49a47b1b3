package org.hpf.write;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.hpf.HashCollisionException;
import org.hpf.format.ArchiveId;
import org.hpf.format.ArchiveLayout;
import org.hpf.format.DirectoryFile;
import org.hpf.format.DirectoryFile.BucketRef;
import org.hpf.format.IndexRecord;
import org.hpf.format.Manifest;
import org.hpf.format.Manifest.NamesSegment;
import org.hpf.format.Manifest.PartInfo;
import org.hpf.format.MemberNames;
import org.hpf.format.NameEntry;
import org.hpf.format.NameHash;
import org.hpf.format.NameHasher;
import org.hpf.index.ExtendibleHashing;
import org.hpf.index.IndexFileReader;
import org.hpf.index.IndexFileWriter;
import org.hpf.io.ArchiveOutput;
import org.hpf.io.ArchiveStorage;

/**
 * Builds the next generation from a committed one (or from nothing, for a create) and a set of
 * changes, then commits it. Only the buckets that changes touch are read and rewritten; untouched
 * buckets keep their index files. The manifest's rename is the commit point: everything it names
 * is written and synced before it.
 *
 * <p>Single use: record changes with {@link #put}, {@link #delete}, {@link #move}, parts with
 * {@link #addPart} and {@link #dropPart}, then call {@link #commit} once.
 */
final class GenerationCommit {
  /** A change to one name; {@code record} null means delete. */
  private record Change(String name, IndexRecord record, long mtime, boolean listed) {}

  /** Live-member counts of a part, updated by changes. */
  private static final class PartStats {
    final long length;
    long liveEntries;
    long liveBytes;

    PartStats(long length, long liveEntries, long liveBytes) {
      this.length = length;
      this.liveEntries = liveEntries;
      this.liveBytes = liveBytes;
    }
  }

  /** What a commit wrote, for reports. */
  record Result(Manifest manifest, DirectoryFile directory, int bucketsWritten) {}

  private final ArchiveStorage storage;
  private final ArchiveId id;
  private final Manifest base;
  private final DirectoryFile baseDirectory;
  private final long generation;
  private final int capacity;
  private final long blockSize;
  private final long partSize;
  private final NameHasher hasher;
  private final Map<NameHash, Change> changes = new HashMap<>();
  private final TreeMap<Integer, PartStats> parts = new TreeMap<>();
  private long fileCount;
  private long originalBytes;
  private long storedBytes;
  private boolean mergeAllNames;
  private boolean committed;

  /**
   * @param base the committed generation to build on, or null for a create
   * @param baseDirectory its directory (null for a create)
   */
  GenerationCommit(ArchiveStorage storage, ArchiveId id, Manifest base,
      DirectoryFile baseDirectory, int capacity, long blockSize, long partSize,
      NameHasher hasher) {
    this.storage = storage;
    this.hasher = hasher;
    this.id = id;
    this.base = base;
    this.baseDirectory = baseDirectory;
    this.generation = base == null ? 1 : base.generation() + 1;
    this.capacity = capacity;
    this.blockSize = blockSize;
    this.partSize = partSize;
    if (base != null) {
      fileCount = base.fileCount();
      originalBytes = base.originalBytes();
      storedBytes = base.storedBytes();
      for (PartInfo part : base.parts()) {
        parts.put(part.id(), new PartStats(part.length(), part.liveEntries(), part.liveBytes()));
      }
    }
  }

  long generation() {
    return generation;
  }

  /** A newly sealed part; its live counts grow as records pointing into it are put. */
  void addPart(int partId, long length) {
    parts.put(partId, new PartStats(length, 0, 0));
  }

  /** Removes a part whose members all moved away or were deleted. */
  void dropPart(int partId) {
    PartStats stats = parts.remove(partId);
    if (stats != null && stats.liveEntries != 0) {
      throw new IllegalStateException("part " + partId + " still has " + stats.liveEntries
          + " live members");
    }
  }

  /** Adds a member, or replaces {@code replaced} (its current record) when not null. */
  void put(String name, IndexRecord record, long mtime, IndexRecord replaced)
      throws HashCollisionException {
    change(new Change(name, record, mtime, true));
    live(record, +1);
    fileCount++;
    originalBytes += record.originalLength();
    storedBytes += record.entryLength();
    if (replaced != null) {
      remove(replaced);
    }
  }

  /** Deletes a member whose current record is {@code existing}. */
  void delete(String name, IndexRecord existing) throws HashCollisionException {
    change(new Change(name, null, 0, true));
    remove(existing);
  }

  /** Points a member at a copy of its entry (compaction); names and counts do not change. */
  void move(String name, IndexRecord from, IndexRecord to) throws HashCollisionException {
    change(new Change(name, to, 0, false));
    live(from, -1);
    live(to, +1);
    storedBytes += to.entryLength() - from.entryLength();
  }

  /** Merge every names segment into one (compaction). */
  void mergeAllNames() {
    this.mergeAllNames = true;
  }

  boolean hasChanges() {
    return !changes.isEmpty() || mergeAllNames
        || base == null || !parts.keySet().equals(partIds(base));
  }

  private static java.util.Set<Integer> partIds(Manifest manifest) {
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    manifest.parts().forEach(p -> ids.add(p.id()));
    return ids;
  }

  private void remove(IndexRecord existing) {
    live(existing, -1);
    fileCount--;
    originalBytes -= existing.originalLength();
    storedBytes -= existing.entryLength();
  }

  private void change(Change change) throws HashCollisionException {
    NameHash hash = change.record != null ? change.record.hash() : hasher.hash(change.name);
    Change previous = changes.put(hash, change);
    if (previous != null) {
      if (previous.name.equals(change.name)) {
        throw new IllegalArgumentException("two changes to '" + change.name + "' in one commit");
      }
      throw new HashCollisionException("names '" + previous.name + "' and '" + change.name
          + "' have the same 128-bit hash " + hash);
    }
  }

  private void live(IndexRecord record, int sign) {
    PartStats stats = parts.get(record.part());
    if (stats == null) {
      throw new IllegalStateException("record points to part " + record.part()
          + ", which this generation does not have");
    }
    stats.liveEntries += sign;
    stats.liveBytes += sign * record.entryLength();
  }

  /**
   * Writes the changed buckets' index files, the names segment, the directory and the manifest,
   * then publishes the manifest.
   */
  Result commit(ExecutorService pool) throws IOException {
    if (committed) {
      throw new IllegalStateException("generation " + generation + " was already committed");
    }
    committed = true;
    List<IndexRecord> pool0 = new ArrayList<>();
    ExtendibleHashing hashing = base == null
        ? ExtendibleHashing.empty(capacity, r -> pool0.get(r).hash().low())
        : ExtendibleHashing.of(baseDirectory, capacity, r -> pool0.get(r).hash().low());
    Map<Integer, List<Change>> byBucket = new TreeMap<>();
    for (Map.Entry<NameHash, Change> e : changes.entrySet()) {
      byBucket.computeIfAbsent(hashing.bucketOf(e.getKey().low()), k -> new ArrayList<>())
          .add(e.getValue());
    }
    if (base == null) {
      byBucket.putIfAbsent(0, new ArrayList<>());
    }
    for (Map.Entry<Integer, List<Change>> e : byBucket.entrySet()) {
      int b = e.getKey();
      BucketRef original = hashing.buckets().get(b).original();
      Map<NameHash, IndexRecord> records = new HashMap<>();
      if (original != null) {
        for (IndexRecord record : IndexFileReader.readRecords(storage, id, original)) {
          records.put(record.hash(), record);
        }
      }
      for (Change change : e.getValue()) {
        if (change.record == null) {
          if (records.remove(hasher.hash(change.name)) == null) {
            throw new IllegalStateException("delete of '" + change.name + "', not in bucket " + b);
          }
        } else {
          records.put(change.record.hash(), change.record);
        }
      }
      IntArrayList ids = new IntArrayList(records.size());
      for (IndexRecord record : records.values()) {
        ids.add(pool0.size());
        pool0.add(record);
      }
      hashing.load(b, ids);
    }
    List<BucketRef> refs = writeBuckets(hashing, pool0, pool);
    DirectoryFile directory = new DirectoryFile(hashing.globalDepth(), refs, hashing.slots());
    String directoryFile = ArchiveLayout.directory(generation);
    writeSmallFile(storage, directoryFile, directory.toBytes(id));
    List<NamesSegment> segments = writeNames();
    List<PartInfo> partList = new ArrayList<>();
    parts.forEach((partId, s) -> partList.add(
        new PartInfo(partId, s.length, s.liveEntries, s.liveBytes)));
    Manifest manifest = new Manifest(id, generation, System.currentTimeMillis(),
        NameHasher.MURMUR3_128_ID, fileCount, originalBytes, storedBytes, capacity, blockSize,
        partSize, directoryFile, segments, partList);
    publish(storage, manifest);
    int written = (int) hashing.buckets().stream().filter(ExtendibleHashing.Bucket::changed)
        .count();
    return new Result(manifest, directory, written);
  }

  private List<BucketRef> writeBuckets(ExtendibleHashing hashing, List<IndexRecord> records,
      ExecutorService pool) throws IOException {
    List<ExtendibleHashing.Bucket> buckets = hashing.buckets();
    List<Future<BucketRef>> futures = new ArrayList<>(buckets.size());
    int nextId = 0;
    for (ExtendibleHashing.Bucket bucket : buckets) {
      if (!bucket.changed()) {
        futures.add(null);
        continue;
      }
      if (bucket.members().isEmpty()) {
        // An empty bucket has no index file: readers never look into it.
        futures.add(java.util.concurrent.CompletableFuture.completedFuture(
            new BucketRef(bucket.localDepth(), 0, 0, 0, 0, 0)));
        continue;
      }
      int bucketId = nextId++;
      futures.add(pool.submit(() -> {
        List<IndexRecord> members = new ArrayList<>(bucket.members().size());
        bucket.members().forEach(r -> members.add(records.get(r)));
        return IndexFileWriter.write(storage, id, generation, bucketId, bucket.localDepth(),
            bucket.prefix(), members, blockSize);
      }));
    }
    List<BucketRef> refs = new ArrayList<>(buckets.size());
    for (int b = 0; b < buckets.size(); b++) {
      refs.add(futures.get(b) == null ? buckets.get(b).original() : get(futures.get(b)));
    }
    return refs;
  }

  /** Writes this generation's names segment and merges segments as the policy says. */
  private List<NamesSegment> writeNames() throws IOException {
    List<Change> listed = new ArrayList<>();
    for (Change change : changes.values()) {
      if (change.listed) {
        listed.add(change);
      }
    }
    listed.sort(Comparator.comparing(Change::name, MemberNames.ORDER));
    List<NamesSegment> segments = new ArrayList<>(base == null ? List.of() : base.namesSegments());
    NamesSegments writer = new NamesSegments(storage, id, generation);
    if (!listed.isEmpty() || base == null) {
      List<NameEntry> entries = new ArrayList<>(listed.size());
      for (Change change : listed) {
        entries.add(change.record == null ? NameEntry.deletion(change.name)
            : NameEntry.present(change.name, change.record.originalLength(), change.mtime));
      }
      segments.add(writer.write(entries.iterator(), entries.size()));
    }
    return writer.compact(segments, mergeAllNames);
  }

  /** Publishes a generation: write the manifest under a temporary name, then rename it. */
  static void publish(ArchiveStorage storage, Manifest manifest) throws IOException {
    String temporary = ArchiveLayout.temporaryManifest(manifest.generation(),
        UUID.randomUUID().toString());
    writeSmallFile(storage, temporary, manifest.toBytes());
    storage.rename(temporary, Manifest.fileName(manifest.generation()));
  }

  static void writeSmallFile(ArchiveStorage storage, String name, byte[] bytes)
      throws IOException {
    try (ArchiveOutput out = storage.create(name, 0)) {
      out.stream().write(bytes);
      out.sync();
    }
  }

  static <T> T get(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IOException(e.getCause());
    }
  }
}
