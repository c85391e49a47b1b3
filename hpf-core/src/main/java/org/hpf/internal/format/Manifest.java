package org.hpf.internal.format;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.MemberAccess;
import org.hpf.NoCommittedGenerationException;

/**
 * What one committed generation consists of (docs/FORMAT.md, "Manifest"). Immutable.
 */
public record Manifest(ArchiveId archiveId, long generation, long commitTimeMillis,
    int hashAlgorithm, long fileCount, long originalBytes, long storedBytes, int bucketCapacity,
    long blockSize, long partSize, List<Layer> layers, List<NamesSegment> namesSegments,
    List<PartInfo> parts, List<MemberAccess> accesses, int partIdFloor, long commitId,
    long baseCommitId) {

  /** The most access classes an archive may record: ids are uint16, 0 means none. */
  public static final int MAX_ACCESSES = 0xFFFF;

  public static final String DIR = "_manifests";
  public static final String PREFIX = "manifest-";

  /**
   * A sealed part file: its id, its length including the footer, and how many of its entries
   * (and their bytes) the generation still uses, which is what compaction looks at.
   */
  public record PartInfo(int id, long length, long liveEntries, long liveBytes) {
    /** The fraction of the part's entry bytes that live members use. */
    public double liveFraction() {
      long entryBytes = entryBytes();
      return entryBytes <= 0 ? 1.0 : (double) liveBytes / entryBytes;
    }

    /** True when every entry of the part is a live member's: none deleted or replaced. */
    public boolean allLive() {
      return liveBytes == entryBytes();
    }

    private long entryBytes() {
      return length - FileHeader.SIZE - 4 - FileFooter.SIZE;
    }
  }

  /** A names file and the number of name entries it holds. */
  public record NamesSegment(String file, long entries) {}

  /**
   * An index layer: an extendible-hashing directory with its buckets. Layer 0 is the base;
   * newer layers hold the records of later changes (deletions as tombstones) and win over older
   * ones. A manifest of version 2 carries the directory itself ({@code directory}, and no
   * file); one of version 1 names its directory file ({@code directory} null until read).
   */
  public record Layer(String directoryFile, long records, DirectoryFile directory) {
    public Layer(String directoryFile, long records) {
      this(directoryFile, records, null);
    }

    /** A layer whose directory the manifest carries. */
    public static Layer inline(DirectoryFile directory, long records) {
      return new Layer(null, records, directory);
    }
  }

  /**
   * @param partIdFloor every part that a writer building on this generation creates has an id
   *     at least this (at least every part id the generation names plus one); it never falls
   *     from one generation to the next
   * @param commitId random, telling this commit from any other of the same generation (0 in
   *     manifests before version 5)
   * @param baseCommitId the commit id of the generation this one was built on: 0 for an
   *     archive's first generation and in manifests before version 6 (unknown)
   */
  public Manifest {
    layers = List.copyOf(layers);
    namesSegments = List.copyOf(namesSegments);
    parts = List.copyOf(parts);
    accesses = List.copyOf(accesses);
    if (accesses.size() > MAX_ACCESSES) {
      throw new IllegalArgumentException(accesses.size() + " access classes");
    }
    if (partIdFloor < idsAbove(parts)) {
      throw new IllegalArgumentException("part id floor " + partIdFloor + " below part "
          + (idsAbove(parts) - 1));
    }
  }

  /** As the canonical constructor, with the floor its parts give and a new commit id. */
  public Manifest(ArchiveId archiveId, long generation, long commitTimeMillis,
      int hashAlgorithm, long fileCount, long originalBytes, long storedBytes,
      int bucketCapacity, long blockSize, long partSize, List<Layer> layers,
      List<NamesSegment> namesSegments, List<PartInfo> parts, List<MemberAccess> accesses) {
    this(archiveId, generation, commitTimeMillis, hashAlgorithm, fileCount, originalBytes,
        storedBytes, bucketCapacity, blockSize, partSize, layers, namesSegments, parts,
        accesses, idsAbove(parts), newCommitId(), 0);
  }

  /** One more than the largest id among {@code parts} (at most the largest int); 0 for none. */
  public static int idsAbove(List<PartInfo> parts) {
    int above = 0;
    for (PartInfo part : parts) {
      above = Math.max(above, part.id() == Integer.MAX_VALUE ? part.id() : part.id() + 1);
    }
    return above;
  }

  /** A random commit id, never 0 (which manifests before version 5 carry). */
  public static long newCommitId() {
    long id;
    do {
      id = java.util.concurrent.ThreadLocalRandom.current().nextLong();
    } while (id == 0);
    return id;
  }

  /**
   * This generation committed again as {@code next}, with nothing changed: what a writer that
   * collects a dead writer's files on an object store publishes first, so that the dead writer
   * can never publish the generation those files were meant for. Its floor lies above
   * {@code partIdsAbove}, so the dead writer's parts fall below it.
   */
  public Manifest republished(long next, int partIdsAbove) {
    return new Manifest(archiveId, next, System.currentTimeMillis(), hashAlgorithm, fileCount,
        originalBytes, storedBytes, bucketCapacity, blockSize, partSize, layers, namesSegments,
        parts, accesses, Math.max(partIdFloor, partIdsAbove), newCommitId(), commitId);
  }

  /**
   * True when {@code other} is this very commit, read again: the same generation with the same
   * commit id and figures (manifests before version 5 have no commit id; their time and figures
   * tell them apart).
   */
  public boolean sameCommit(Manifest other) {
    return other != null && archiveId.equals(other.archiveId)
        && generation == other.generation && commitId == other.commitId
        && commitTimeMillis == other.commitTimeMillis && fileCount == other.fileCount
        && storedBytes == other.storedBytes && parts.equals(other.parts)
        && namesSegments.equals(other.namesSegments);
  }

  /** A manifest that records no access class (older formats). */
  public Manifest(ArchiveId archiveId, long generation, long commitTimeMillis,
      int hashAlgorithm, long fileCount, long originalBytes, long storedBytes,
      int bucketCapacity, long blockSize, long partSize, List<Layer> layers,
      List<NamesSegment> namesSegments, List<PartInfo> parts) {
    this(archiveId, generation, commitTimeMillis, hashAlgorithm, fileCount, originalBytes,
        storedBytes, bucketCapacity, blockSize, partSize, layers, namesSegments, parts,
        List.of());
  }

  /** This generation's manifest with {@code accesses} as its dictionary. */
  public Manifest withAccesses(List<MemberAccess> dictionary) {
    return new Manifest(archiveId, generation, commitTimeMillis, hashAlgorithm, fileCount,
        originalBytes, storedBytes, bucketCapacity, blockSize, partSize, layers, namesSegments,
        parts, dictionary, partIdFloor, commitId, baseCommitId);
  }

  /**
   * The access class {@code id} (1-based), or null for 0 (not recorded).
   *
   * @throws CorruptArchiveException if the dictionary has no such class
   */
  public MemberAccess access(int id, String file) throws CorruptArchiveException {
    if (id == 0) {
      return null;
    }
    if (id > accesses.size()) {
      throw new CorruptArchiveException(file, "access id " + id + ", but the manifest has "
          + accesses.size() + " access classes", null);
    }
    return accesses.get(id - 1);
  }

  public static String fileName(long generation) {
    return DIR + "/" + PREFIX + generationName(generation);
  }

  /** Generations are 10 decimal digits in file names. */
  public static String generationName(long generation) {
    return ArchiveLayout.zeroPadded(generation, 10);
  }

  /** The generation named by a file in {@link #DIR}, or -1 if the name is not a manifest. */
  public static long generationOf(String fileName) {
    if (!fileName.startsWith(PREFIX)) {
      return -1;
    }
    String digits = fileName.substring(PREFIX.length());
    if (digits.length() != 10 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(digits);
  }

  public byte[] toBytes() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ChecksummedOutput out = new ChecksummedOutput(bytes);
    DataOutputStream data = out.data();
    FileHeader.write(data, FileKind.MANIFEST, archiveId);
    data.writeLong(generation);
    data.writeLong(commitTimeMillis);
    data.writeByte(hashAlgorithm);
    data.writeLong(fileCount);
    data.writeLong(originalBytes);
    data.writeLong(storedBytes);
    data.writeInt(bucketCapacity);
    data.writeLong(blockSize);
    data.writeLong(partSize);
    data.writeInt(layers.size());
    for (Layer layer : layers) {
      if (layer.directory() == null) {
        throw new IllegalStateException("a manifest of version 2 or 3 carries every directory: "
            + layer.directoryFile() + " was not read");
      }
      data.writeLong(layer.records());
      data.writeInt(layer.directory().bodyLength());
      layer.directory().writeBody(data);
    }
    data.writeInt(namesSegments.size());
    for (NamesSegment segment : namesSegments) {
      writeString(data, segment.file());
      data.writeLong(segment.entries());
    }
    data.writeInt(parts.size());
    for (PartInfo part : parts) {
      data.writeInt(part.id());
      data.writeLong(part.length());
      data.writeLong(part.liveEntries());
      data.writeLong(part.liveBytes());
    }
    data.writeInt(accesses.size());
    for (MemberAccess access : accesses) {
      writeString(data, access.owner());
      writeString(data, access.group());
      data.writeShort(access.mode());
    }
    data.writeInt(partIdFloor);
    data.writeLong(commitId);
    data.writeLong(baseCommitId);
    out.writeFooter();
    return bytes.toByteArray();
  }

  /**
   * Parses the body of a manifest of {@code version} (after {@link SealedFile} checked header
   * and footer).
   */
  public static Manifest parse(ArchiveId id, ByteBuffer buf, String file, int version)
      throws CorruptArchiveException {
    try {
      long generation = buf.getLong();
      long commitTime = buf.getLong();
      int hashAlgorithm = buf.get() & 0xFF;
      if (!NameHasher.isKnown(hashAlgorithm)) {
        throw new CorruptArchiveException(file, buf.position() - 1,
            "unknown hash algorithm " + hashAlgorithm);
      }
      long fileCount = buf.getLong();
      long originalBytes = buf.getLong();
      long storedBytes = buf.getLong();
      int capacity = buf.getInt();
      long blockSize = buf.getLong();
      long partSize = buf.getLong();
      int layerCount = buf.getInt();
      if (layerCount < 1 || layerCount > buf.remaining() / 10) {
        throw new CorruptArchiveException(file, buf.position() - 4,
            "bad index layer count " + layerCount);
      }
      List<Layer> layers = new ArrayList<>(layerCount);
      for (int i = 0; i < layerCount; i++) {
        layers.add(version == 1 ? new Layer(readString(buf), buf.getLong())
            : inlineLayer(buf, file, i));
      }
      int segmentCount = buf.getInt();
      if (segmentCount < 0 || segmentCount > buf.remaining() / 10) {
        throw new CorruptArchiveException(file, buf.position() - 4,
            "bad names segment count " + segmentCount);
      }
      List<NamesSegment> segments = new ArrayList<>(segmentCount);
      for (int i = 0; i < segmentCount; i++) {
        segments.add(new NamesSegment(readString(buf), buf.getLong()));
      }
      int partCount = buf.getInt();
      if (partCount < 0 || partCount > buf.remaining() / 28) {
        throw new CorruptArchiveException(file, buf.position() - 4, "bad part count " + partCount);
      }
      List<PartInfo> parts = new ArrayList<>(partCount);
      for (int i = 0; i < partCount; i++) {
        parts.add(new PartInfo(buf.getInt(), buf.getLong(), buf.getLong(), buf.getLong()));
      }
      List<MemberAccess> accesses = version >= 4 ? accesses(buf, file) : List.of();
      int floor = idsAbove(parts);
      long commitId = 0;
      long baseCommitId = 0;
      if (version >= 5) {
        int recorded = buf.getInt();
        if (recorded < floor) {
          throw new CorruptArchiveException(file, buf.position() - 4, "part id floor "
              + recorded + " below part " + (floor - 1) + " of the manifest");
        }
        floor = recorded;
        commitId = buf.getLong();
      }
      if (version >= 6) {
        baseCommitId = buf.getLong();
      }
      if (buf.hasRemaining()) {
        throw new CorruptArchiveException(file, buf.position(),
            buf.remaining() + " unexpected bytes after the " + (version >= 6 ? "base commit id"
                : version == 5 ? "commit id" : version == 4 ? "access classes" : "part list"));
      }
      return new Manifest(id, generation, commitTime, hashAlgorithm, fileCount, originalBytes,
          storedBytes, capacity, blockSize, partSize, layers, segments, parts, accesses, floor,
          commitId, baseCommitId);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw SealedFile.truncatedBody(file, buf, e);
    }
  }

  /** AccessCount:int32, then Owner:String16, Group:String16, Permission:uint16 each. */
  private static List<MemberAccess> accesses(ByteBuffer buf, String file)
      throws CorruptArchiveException {
    int count = buf.getInt();
    if (count < 0 || count > MAX_ACCESSES || count > buf.remaining() / 6) {
      throw new CorruptArchiveException(file, buf.position() - 4,
          "bad access class count " + count);
    }
    List<MemberAccess> accesses = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String owner = readString(buf);
      String group = readString(buf);
      int mode = buf.getShort() & 0xFFFF;
      if ((mode & ~MemberAccess.MODE_BITS) != 0) {
        throw new CorruptArchiveException(file, buf.position() - 2, "access class " + (i + 1)
            + " has permission bits 0" + Integer.toOctalString(mode) + " outside 07777");
      }
      accesses.add(new MemberAccess(owner, group, mode));
    }
    return accesses;
  }

  /** Reads and checks the manifest of {@code generation}. */
  public static Manifest read(org.hpf.internal.io.ArchiveStorage storage, long generation)
      throws java.io.IOException {
    String name = fileName(generation);
    byte[] bytes = SealedFile.readBytes(storage, name, FileKind.MANIFEST);
    if (generation == 1 && RemovalMarker.is(bytes)) {
      throw NoCommittedGenerationException.beingRemoved(storage.location());
    }
    ByteBuffer body = SealedFile.check(bytes, storage.location(name), FileKind.MANIFEST, null);
    ByteBuffer header = ByteBuffer.wrap(body.array());
    ArchiveId id = FileHeader.check(header, storage.location(name), FileKind.MANIFEST, null);
    Manifest manifest = parse(id, body, storage.location(name), FileHeader.version(header, 0));
    if (manifest.generation() != generation) {
      throw new CorruptArchiveException(storage.location(name), FileHeader.SIZE,
          "manifest says generation " + manifest.generation());
    }
    return manifest;
  }

  /**
   * The directory of every index layer, oldest first: those the manifest carries, and those of
   * version 1 manifests read (and checked) from their files.
   */
  public List<DirectoryFile> readDirectories(org.hpf.internal.io.ArchiveStorage storage)
      throws java.io.IOException {
    List<DirectoryFile> directories = new ArrayList<>(layers.size());
    for (Layer layer : layers) {
      directories.add(layer.directory() != null ? layer.directory() : DirectoryFile.parse(
          SealedFile.read(storage, layer.directoryFile(), FileKind.DIRECTORY, archiveId),
          storage.location(layer.directoryFile())));
    }
    return directories;
  }

  /** Layer --> Records:int64, DirectoryLength:int32, the directory's body (version 2). */
  private static Layer inlineLayer(ByteBuffer buf, String file, int index)
      throws CorruptArchiveException {
    long records = buf.getLong();
    int length = buf.getInt();
    if (length < 0 || length > buf.remaining()) {
      throw new CorruptArchiveException(file, buf.position() - 4, "layer " + index
          + " has a directory of " + length + " bytes, " + buf.remaining() + " are left");
    }
    ByteBuffer body = buf.slice(buf.position(), length);
    buf.position(buf.position() + length);
    return Layer.inline(DirectoryFile.parse(body, file + " (directory of layer " + index + ")"),
        records);
  }

  /** The part with this id, or null. */
  public PartInfo part(int id) {
    for (PartInfo part : parts) {
      if (part.id() == id) {
        return part;
      }
    }
    return null;
  }

  static void writeString(DataOutputStream data, String value) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    data.writeShort(bytes.length);
    data.write(bytes);
  }

  static String readString(ByteBuffer buf) {
    int length = buf.getShort() & 0xFFFF;
    byte[] bytes = new byte[length];
    buf.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
