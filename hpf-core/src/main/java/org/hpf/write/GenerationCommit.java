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
import org.hpf.format.Manifest.Layer;
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
  record Result(Manifest manifest, DirectoryFile directory, int bucketsWritten,
      long indexBytesWritten) {}

  private final ArchiveStorage storage;
  private final ArchiveId id;
  private final Manifest base;
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
  private boolean mergeAllLayers;
  private boolean committed;

  /**
   * @param base the committed generation to build on, or null for a create
   */
  GenerationCommit(ArchiveStorage storage, ArchiveId id, Manifest base, int capacity,
      long blockSize, long partSize, NameHasher hasher) {
    this.storage = storage;
    this.hasher = hasher;
    this.id = id;
    this.base = base;
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

  /** Merge every index layer into the base and every names segment into one (compaction). */
  void mergeAll() {
    this.mergeAllNames = true;
    this.mergeAllLayers = true;
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
   * Writes the index layer this commit needs, the names segment and the manifest, then
   * publishes the manifest.
   *
   * <p>The commit's records (tombstones for deletions) become a new index layer on top of the
   * older ones, written with fingerprints so that lookups pass it in memory; so an append costs
   * what it adds, not what the archive holds. While the new records number at least a quarter of
   * the layer below, that layer is folded into them (newest wins), and once only the base is
   * left below, they are merged into the base by rewriting just the base buckets that receive
   * records, with the splits the directory needs. Each record is rewritten O(log n) times.
   */
  Result commit(ExecutorService pool) throws IOException {
    if (committed) {
      throw new IllegalStateException("generation " + generation + " was already committed");
    }
    committed = true;
    Map<NameHash, IndexRecord> pending = new HashMap<>();
    for (Map.Entry<NameHash, Change> e : changes.entrySet()) {
      IndexRecord record = e.getValue().record;
      pending.put(e.getKey(), record != null ? record : IndexRecord.tombstone(e.getKey()));
    }
    List<Layer> layers = new ArrayList<>(base == null ? List.of() : base.layers());
    List<DirectoryFile> directories = new ArrayList<>(
        base == null ? List.of() : base.readDirectories(storage));
    while (layers.size() > 1 && (mergeAllLayers
        || pending.size() * 4L >= layers.get(layers.size() - 1).records())) {
      Map<NameHash, IndexRecord> folded = new HashMap<>();
      for (IndexRecord record : readLayer(directories.get(directories.size() - 1))) {
        folded.put(record.hash(), record);
      }
      folded.putAll(pending);
      pending = folded;
      layers.remove(layers.size() - 1);
      directories.remove(directories.size() - 1);
    }
    LayerWrite written;
    if (layers.isEmpty()) {
      written = mergeIntoBase(null, pending, pool);
      layers.add(written.layer);
    } else if (layers.size() == 1 && (mergeAllLayers
        || pending.size() * 4L >= layers.get(0).records())) {
      written = mergeIntoBase(directories.get(0), pending, pool);
      layers.set(0, written.layer);
    } else if (!pending.isEmpty()) {
      written = writeDelta(pending, pool);
      layers.add(written.layer);
    } else {
      written = new LayerWrite(null, null, 0, 0);
    }
    List<NamesSegment> segments = writeNames();
    List<PartInfo> partList = new ArrayList<>();
    parts.forEach((partId, stats) -> partList.add(
        new PartInfo(partId, stats.length, stats.liveEntries, stats.liveBytes)));
    Manifest manifest = new Manifest(id, generation, System.currentTimeMillis(),
        NameHasher.MURMUR3_128_ID, fileCount, originalBytes, storedBytes, capacity, blockSize,
        partSize, layers, segments, partList);
    publish(storage, manifest);
    return new Result(manifest, written.directory, written.buckets, written.indexBytes);
  }

  /** A layer this commit wrote: its manifest entry, directory, buckets and index bytes. */
  private record LayerWrite(Layer layer, DirectoryFile directory, int buckets, long indexBytes) {}

  /**
   * Merges records into the base layer (or builds it, for a create): only the base buckets
   * that receive records are read and rewritten; tombstones remove what they name.
   */
  private LayerWrite mergeIntoBase(DirectoryFile baseLayer, Map<NameHash, IndexRecord> pending,
      ExecutorService pool) throws IOException {
    List<IndexRecord> records = new ArrayList<>();
    ExtendibleHashing hashing = baseLayer == null
        ? ExtendibleHashing.empty(capacity, r -> records.get(r).hash().low())
        : ExtendibleHashing.of(baseLayer, capacity, r -> records.get(r).hash().low());
    Map<Integer, List<IndexRecord>> byBucket = new TreeMap<>();
    for (IndexRecord record : pending.values()) {
      byBucket.computeIfAbsent(hashing.bucketOf(record.hash().low()), k -> new ArrayList<>())
          .add(record);
    }
    if (baseLayer == null) {
      byBucket.putIfAbsent(0, new ArrayList<>());
    }
    for (Map.Entry<Integer, List<IndexRecord>> e : byBucket.entrySet()) {
      BucketRef original = hashing.buckets().get(e.getKey()).original();
      Map<NameHash, IndexRecord> bucket = new HashMap<>();
      if (original != null) {
        for (IndexRecord record : IndexFileReader.readRecords(storage, id, original)) {
          bucket.put(record.hash(), record);
        }
      }
      for (IndexRecord record : e.getValue()) {
        if (record.isTombstone()) {
          bucket.remove(record.hash());
        } else {
          bucket.put(record.hash(), record);
        }
      }
      IntArrayList ids = new IntArrayList(bucket.size());
      for (IndexRecord record : bucket.values()) {
        ids.add(records.size());
        records.add(record);
      }
      hashing.load(e.getKey(), ids);
    }
    return writeLayer(hashing, records, false, pool);
  }

  /** Writes records as a new layer with a directory of its own, fingerprints and tombstones. */
  private LayerWrite writeDelta(Map<NameHash, IndexRecord> pending, ExecutorService pool)
      throws IOException {
    List<IndexRecord> records = new ArrayList<>(pending.values());
    ExtendibleHashing hashing =
        ExtendibleHashing.empty(capacity, r -> records.get(r).hash().low());
    for (int i = 0; i < records.size(); i++) {
      hashing.insert(i);
    }
    return writeLayer(hashing, records, true, pool);
  }

  private LayerWrite writeLayer(ExtendibleHashing hashing, List<IndexRecord> records,
      boolean fingerprints, ExecutorService pool) throws IOException {
    List<BucketRef> refs = writeBuckets(hashing, records, fingerprints, pool);
    DirectoryFile directory = new DirectoryFile(hashing.globalDepth(), refs, hashing.slots());
    String directoryFile = ArchiveLayout.directory(generation);
    writeSmallFile(storage, directoryFile, directory.toBytes(id));
    int buckets = 0;
    long indexBytes = 0;
    long count = 0;
    for (int b = 0; b < refs.size(); b++) {
      count += refs.get(b).recordCount();
      if (hashing.buckets().get(b).changed()) {
        buckets++;
        indexBytes += refs.get(b).indexFileLength();
      }
    }
    return new LayerWrite(new Layer(directoryFile, count), directory, buckets, indexBytes);
  }

  /** Every record of a layer, from all of its index files. */
  private List<IndexRecord> readLayer(DirectoryFile layer) throws IOException {
    List<IndexRecord> records = new ArrayList<>();
    for (BucketRef bucket : layer.buckets()) {
      records.addAll(IndexFileReader.readRecords(storage, id, bucket));
    }
    return records;
  }

  private List<BucketRef> writeBuckets(ExtendibleHashing hashing, List<IndexRecord> records,
      boolean fingerprints, ExecutorService pool) throws IOException {
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
            bucket.prefix(), members, blockSize, fingerprints);
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
