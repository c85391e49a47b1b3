package org.hpf.internal.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.hpf.CorruptArchiveException;
import org.hpf.ProgressListener;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.EntryHeader;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.format.SequentialInput;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.read.HpfReader;

/**
 * Rewrites sparse parts: every entry of a part whose live fraction is below the threshold is
 * checked against the current index and, if it is still the member's entry, copied verbatim
 * into a new part; the old part is then dropped from the generation. Nothing is deleted here:
 * the old parts go when no kept generation names them.
 */
final class Compactor {
  /** What the compaction wrote and dropped. */
  record Outcome(long bytesWritten, int partsWritten, int partsRemoved) {}

  private Compactor() {}

  /**
   * True when a compaction at this threshold would change something: a part to rewrite or drop,
   * or index layers or names segments to merge. Without any, it commits no generation.
   */
  static boolean hasWork(Manifest manifest, double minLiveFraction) {
    return manifest.layers().size() > 1 || manifest.namesSegments().size() > 1
        || manifest.parts().stream().anyMatch(part -> part.liveFraction() < minLiveFraction);
  }

  static Outcome run(ArchiveStorage storage, Manifest manifest, HpfReader reader,
      GenerationCommit commit, double minLiveFraction, int firstPartId, long partSize,
      ProgressListener progress) throws IOException {
    List<PartInfo> candidates = new ArrayList<>();
    for (PartInfo part : manifest.parts()) {
      if (part.liveFraction() < minLiveFraction) {
        candidates.add(part);
      }
    }
    progress.phase("compacting");
    List<PartInfo> written = new ArrayList<>();
    PartWriter out = null;
    long[] copied = new long[2]; // entries and bytes copied into out
    int nextId = firstPartId;
    try {
      for (PartInfo part : candidates) {
        if (part.liveEntries() == 0) {
          continue;
        }
        try (ArchiveInput in = storage.open(ArchiveLayout.part(part.id()))) {
          SequentialInput entries = new SequentialInput(in, PartWriter.PREAMBLE,
              part.length() - FileFooter.SIZE, 1 << 20);
          while (entries.position() < part.length() - FileFooter.SIZE) {
            long offset = entries.position();
            byte[] head = readHeader(entries, in.name(), offset);
            EntryHeader header = EntryHeader.read(head, 0, head.length, in.name(), offset);
            IndexRecord current = reader.recordOfHash(header.name());
            boolean live = current != null && current.part() == part.id()
                && current.offset() == offset;
            long rest = header.entryLength() - header.size();
            if (!live) {
              skip(entries, rest, in.name());
              continue;
            }
            if (out != null && !out.isEmpty()
                && out.position() + header.entryLength() > partSize) {
              written.add(seal(out, copied, commit));
              out = null;
            }
            if (out == null) {
              out = new PartWriter(storage, manifest.archiveId(), nextId++,
                  manifest.blockSize());
            }
            long newOffset = out.position();
            out.output().write(head);
            copy(entries, out, rest, in.name());
            // The copy's record carries the entry's time, which a version 1 record lacked.
            commit.move(header.name(), current,
                current.movedTo(out.id(), newOffset).withMtime(header.mtimeMillis()));
            copied[0]++;
            copied[1] += current.entryLength();
          }
        }
      }
      if (out != null) {
        written.add(seal(out, copied, commit));
        out = null;
      }
    } finally {
      if (out != null) {
        out.close();
      }
    }
    long bytes = 0;
    for (PartInfo part : written) {
      bytes += part.length();
    }
    for (PartInfo part : candidates) {
      commit.dropPart(part.id());
    }
    commit.mergeAll();
    return new Outcome(bytes, written.size(), candidates.size());
  }

  /** Seals a part of copies and adds it to the generation with its live counts. */
  private static PartInfo seal(PartWriter out, long[] live, GenerationCommit commit)
      throws IOException {
    PartInfo part = new PartInfo(out.id(), out.seal(), live[0], live[1]);
    commit.addPart(part);
    live[0] = 0;
    live[1] = 0;
    return part;
  }

  /** Reads an entry header: the fixed part, then the name and header checksum. */
  private static byte[] readHeader(SequentialInput in, String file, long offset)
      throws IOException {
    byte[] fixed = new byte[EntryHeader.FIXED_SIZE - 4];
    readFully(in, fixed, 0, fixed.length, file, offset);
    int nameLength = ByteBuffer.wrap(fixed, 6, 2).getShort() & 0xFFFF;
    byte[] head = new byte[EntryHeader.size(nameLength)];
    System.arraycopy(fixed, 0, head, 0, fixed.length);
    readFully(in, head, fixed.length, head.length - fixed.length, file, offset);
    return head;
  }

  private static void readFully(SequentialInput in, byte[] b, int off, int len, String file,
      long offset) throws IOException {
    try {
      in.readFully(b, off, len);
    } catch (java.io.EOFException e) {
      throw new CorruptArchiveException(file, "entry at offset " + offset + " runs past the "
          + "end of the part", e);
    }
  }

  private static void skip(SequentialInput in, long bytes, String file) throws IOException {
    byte[] chunk = new byte[(int) Math.min(bytes, 1 << 16)];
    while (bytes > 0) {
      int n = in.read(chunk, 0, (int) Math.min(chunk.length, bytes));
      if (n < 0) {
        throw new CorruptArchiveException(file, in.position(), "entry runs past the part's end");
      }
      bytes -= n;
    }
  }

  private static void copy(SequentialInput in, PartWriter out, long bytes, String file)
      throws IOException {
    byte[] chunk = new byte[(int) Math.min(bytes, 1 << 16)];
    while (bytes > 0) {
      int n = in.read(chunk, 0, (int) Math.min(chunk.length, bytes));
      if (n < 0) {
        throw new CorruptArchiveException(file, in.position(), "entry runs past the part's end");
      }
      out.output().write(chunk, 0, n);
      bytes -= n;
    }
  }
}
