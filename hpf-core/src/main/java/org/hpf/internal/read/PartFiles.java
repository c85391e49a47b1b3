package org.hpf.internal.read;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.security.UserGroupInformation;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.format.ArchiveLayout;
import org.hpf.internal.format.FileFooter;
import org.hpf.internal.format.FileHeader;
import org.hpf.internal.format.FileKind;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.format.Manifest.PartInfo;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * The part files of a generation, each opened once on first use and then shared by all threads
 * through positioned reads, so a get never opens a stream.
 */
final class PartFiles implements AutoCloseable {
  /** Parts a generation has at most for a reader to open them all ahead of its first get. */
  static final int MAX_OPENED_AHEAD = 4;

  private final ArchiveStorage storage;
  private final FileOpener opener;
  private final Manifest manifest;
  /** The manifest's parts by id: a get finds its part without a scan. */
  private final Map<Integer, PartInfo> byId = new HashMap<>();
  private final LoadOnce<Integer, ArchiveInput> open = new LoadOnce<>();
  private final AtomicBoolean openedAhead = new AtomicBoolean();

  PartFiles(ArchiveStorage storage, FileOpener opener, Manifest manifest) {
    this.storage = storage;
    this.opener = opener;
    this.manifest = manifest;
    for (PartInfo part : manifest.parts()) {
      byId.put(part.id(), part);
    }
  }

  /** The open part that holds {@code record}'s entry, after checking the entry lies inside it. */
  ArchiveInput partOf(IndexRecord record, String indexFile) throws IOException {
    PartInfo info = byId.get(record.part());
    if (info == null) {
      throw new CorruptArchiveException(indexFile, 0, "record points to part " + record.part()
          + ", which the manifest does not list");
    }
    if (record.offset() + record.entryLength() > info.length() - FileFooter.SIZE) {
      throw new CorruptArchiveException(indexFile, 0, "record points past the end of "
          + ArchiveLayout.part(record.part()));
    }
    return open.get(info.id(), () -> openPart(info));
  }

  /**
   * As {@link #partOf(IndexRecord, String)}, for reading {@code member}: if the part is
   * truncated, the error names the member and where its entry starts, not only the part.
   */
  ArchiveInput partOf(IndexRecord record, String indexFile, String member) throws IOException {
    try {
      return partOf(record, indexFile);
    } catch (TruncatedPart e) {
      throw e.reading(member, storage.location(), record);
    }
  }

  private ArchiveInput openPart(PartInfo info) throws IOException {
    String name = ArchiveLayout.part(info.id());
    ArchiveInput input = opener.open(name, info.length());
    if (input.length() < info.length()) {
      long actual = input.length();
      input.close();
      throw new TruncatedPart(storage.location(name), name, actual, info.length());
    }
    // The first get's entry is read while the preamble is checked.
    return new PreambleCheckedPart(input,
        part -> checkPreamble(part, storage.location(name), info.id()));
  }

  /** Header and part id, checked once per opened part (no get reads them again). */
  private void checkPreamble(ArchiveInput input, String file, int id) throws IOException {
    ByteBuffer preamble = ByteBuffer.wrap(input.readFully(0, FileHeader.SIZE + 4));
    FileHeader.check(preamble, file, FileKind.PART, manifest.archiveId());
    int stored = preamble.getInt();
    if (stored != id) {
      throw new CorruptArchiveException(file, FileHeader.SIZE, "part id " + stored
          + ", expected " + id);
    }
  }

  /**
   * Starts opening every part in the background, once per reader, where the generation has at
   * most {@value #MAX_OPENED_AHEAD}: a first get then has its part's block locations asked
   * while it reads the index rather than after it. A reader that serves many gets opens every
   * part anyway; one that serves a single get asks for at most three locations it needs not.
   * The opens run as the calling user.
   */
  void openAhead() throws IOException {
    if (manifest.parts().size() > MAX_OPENED_AHEAD || !openedAhead.compareAndSet(false, true)) {
      return;
    }
    UserGroupInformation caller = UserGroupInformation.getCurrentUser();
    for (PartInfo info : manifest.parts()) {
      open.loadAhead(info.id(), () -> asUser(caller, info), BackgroundReads.THREADS);
    }
  }

  private ArchiveInput asUser(UserGroupInformation user, PartInfo info) throws IOException {
    try {
      return user.doAs((PrivilegedExceptionAction<ArchiveInput>)
          () -> openPart(info));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted opening "
          + ArchiveLayout.part(info.id()));
    }
  }

  /** Opens every part of the generation that is not open yet. */
  void openAll() throws IOException {
    for (PartInfo info : manifest.parts()) {
      open.get(info.id(), () -> openPart(info));
    }
  }

  /** A part shorter than the manifest says: it is refused when opened, so none of it is read. */
  static final class TruncatedPart extends CorruptArchiveException {
    private static final long serialVersionUID = 1L;
    private final String part;
    private final long actual;
    private final long expected;

    TruncatedPart(String file, String part, long actual, long expected) {
      super(file, actual, "part is truncated: " + actual + " bytes, the manifest says "
          + expected);
      this.part = part;
      this.actual = actual;
      this.expected = expected;
    }

    /** The error as the reader of {@code member}, whose entry {@code record} locates, sees it. */
    CorruptArchiveException reading(String member, String archive, IndexRecord record) {
      String entry = "its entry at offset " + record.offset() + " of " + part;
      String problem = record.offset() + record.entryLength() > actual
          ? entry + " runs past the end of the part (" + actual + " bytes): the part is truncated"
          : entry + " is whole, but the part is truncated (" + actual + " bytes, the manifest"
              + " says " + expected + ")";
      return new CorruptArchiveException("'" + member + "' in " + archive, problem, this);
    }
  }

  @Override
  public void close() throws IOException {
    open.closeAll();
  }
}
