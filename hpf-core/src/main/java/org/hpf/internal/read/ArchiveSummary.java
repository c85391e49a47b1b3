package org.hpf.internal.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.hpf.internal.format.DirectoryFile.BucketRef;
import org.hpf.internal.format.DirectoryFile;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * What one generation of an archive consists of, from its manifest and the directories of its
 * index layers only (no index, part or names file is read): the figures {@code hpf info} and the
 * benchmarks report. Index bytes per file and bits per key are measured as stored: every layer's
 * index files, and the serialized functions (with their fingerprints in layers above the base).
 */
public record ArchiveSummary(String location, int formatVersion, Manifest manifest,
    List<LayerSummary> layers) {

  /**
   * One index layer: its directory file (null: the manifest carries the directory) and what
   * its buckets hold.
   */
  public record LayerSummary(String directoryFile, long records, int globalDepth, int buckets,
      int indexFiles, long indexBytes, long functionBytes) {

    /** Bits of serialized function per record of this layer. */
    public double functionBitsPerKey() {
      return records == 0 ? 0 : functionBytes * 8.0 / records;
    }
  }

  public ArchiveSummary {
    layers = List.copyOf(layers);
  }

  /** Summarizes the generation {@code reader} reads. */
  public static ArchiveSummary of(HpfReader reader, ArchiveStorage storage) throws IOException {
    Manifest manifest = reader.manifest();
    List<LayerSummary> layers = new ArrayList<>();
    for (int i = 0; i < reader.layers().size(); i++) {
      DirectoryFile directory = reader.layers().get(i);
      int indexFiles = 0;
      long indexBytes = 0;
      long functionBytes = 0;
      for (BucketRef bucket : directory.buckets()) {
        if (bucket.recordCount() > 0) {
          indexFiles++;
          indexBytes += bucket.indexFileLength();
          functionBytes += bucket.functionLength();
        }
      }
      Manifest.Layer layer = manifest.layers().get(i);
      layers.add(new LayerSummary(layer.directoryFile(), layer.records(),
          directory.globalDepth(), directory.buckets().size(), indexFiles, indexBytes,
          functionBytes));
    }
    return new ArchiveSummary(reader.location(), formatVersion(storage, manifest), manifest,
        layers);
  }

  /** The format version in the manifest's header (its sixth byte, docs/FORMAT.md). */
  private static int formatVersion(ArchiveStorage storage, Manifest manifest) throws IOException {
    try (ArchiveInput in = storage.open(Manifest.fileName(manifest.generation()))) {
      return in.readFully(5, 1)[0] & 0xFF;
    }
  }

  public long generation() {
    return manifest.generation();
  }

  /** The distinct owner, group and mode triples the archive records (0 before format 4). */
  public int accessClasses() {
    return manifest.accesses().size();
  }

  public long files() {
    return manifest.fileCount();
  }

  public long originalBytes() {
    return manifest.originalBytes();
  }

  public long storedBytes() {
    return manifest.storedBytes();
  }

  public int parts() {
    return manifest.parts().size();
  }

  /** Length of all part files, footers and entries of deleted or replaced members included. */
  public long partBytes() {
    return manifest.parts().stream().mapToLong(PartInfo::length).sum();
  }

  /** Bytes of the parts' entries that live members use. */
  public long liveBytes() {
    return manifest.parts().stream().mapToLong(PartInfo::liveBytes).sum();
  }

  /** Buckets of all layers (empty buckets included: they have no index file). */
  public int buckets() {
    return layers.stream().mapToInt(LayerSummary::buckets).sum();
  }

  /** Global depth of the base layer's directory. */
  public int globalDepth() {
    return layers.get(0).globalDepth();
  }

  public int indexFiles() {
    return layers.stream().mapToInt(LayerSummary::indexFiles).sum();
  }

  public long indexBytes() {
    return layers.stream().mapToLong(LayerSummary::indexBytes).sum();
  }

  public long functionBytes() {
    return layers.stream().mapToLong(LayerSummary::functionBytes).sum();
  }

  /** Records of all layers (tombstones and records that newer layers override included). */
  public long records() {
    return layers.stream().mapToLong(LayerSummary::records).sum();
  }

  /** Index file bytes per member: what the index costs a file. */
  public double indexBytesPerFile() {
    return files() == 0 ? 0 : (double) indexBytes() / files();
  }

  /** Serialized function bits per record, over all layers. */
  public double functionBitsPerKey() {
    long records = records();
    return records == 0 ? 0 : functionBytes() * 8.0 / records;
  }

  public int namesSegments() {
    return manifest.namesSegments().size();
  }
}
