package org.hpf.internal.format;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.hpf.internal.io.ArchiveInput;
import org.hpf.internal.io.ArchiveStorage;

/**
 * The file that takes generation 1's manifest name while recovery removes a create that never
 * committed, on a store that commits by conditional create (docs/FORMAT.md, "Removal marker"): a
 * header of kind {@link FileKind#REMOVAL} and a footer, 32 bytes. While it is there no writer
 * can commit that create, and readers report the archive as not committed.
 */
public final class RemovalMarker {
  /** Where the marker lives: the name the create would commit by. */
  public static final String NAME = Manifest.fileName(1);
  public static final int SIZE = FileHeader.SIZE + FileFooter.SIZE;
  private static final ArchiveId NO_ARCHIVE = new ArchiveId(0, 0);

  private RemovalMarker() {}

  /** The marker's bytes. */
  public static byte[] bytes() {
    ByteBuffer buf = ByteBuffer.allocate(SIZE);
    buf.put(FileHeader.bytes(FileKind.REMOVAL, NO_ARCHIVE)).putInt(FileFooter.MAGIC);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, SIZE - 4);
    return buf.putInt((int) crc.getValue()).array();
  }

  /** True where {@code file} is exactly a removal marker. */
  public static boolean is(byte[] file) {
    return java.util.Arrays.equals(file, bytes());
  }

  /** True where the archive's generation 1 manifest name holds a removal marker. */
  public static boolean isAt(ArchiveStorage storage) throws IOException {
    try (ArchiveInput in = storage.open(NAME)) {
      return in.length() == SIZE && is(in.readFully(0, SIZE));
    } catch (FileNotFoundException e) {
      return false;
    }
  }
}
