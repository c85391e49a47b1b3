package org.hpf.internal.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.hpf.CorruptArchiveException;
import org.hpf.internal.io.ArchiveInput;
import org.junit.jupiter.api.Test;

/** A part read while its preamble is checked: no byte before the check passes. */
class PreambleCheckedPartTest {
  private static final byte[] BYTES = {1, 2, 3, 4, 5, 6, 7, 8};

  /** A part of {@link #BYTES}. */
  private static ArchiveInput part() {
    return new ArchiveInput() {
      @Override
      public String name() {
        return "part-000007";
      }

      @Override
      public long length() {
        return BYTES.length;
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length) {
        System.arraycopy(BYTES, (int) position, buffer, offset, length);
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void readsReturnOnceTheCheckPassed() throws IOException {
    AtomicInteger checks = new AtomicInteger();
    ArchiveInput raw = part();
    try (PreambleCheckedPart part = new PreambleCheckedPart(raw, p -> checks.incrementAndGet())) {
      assertArrayEquals(new byte[] {3, 4, 5}, part.readFully(2, 3));
      assertArrayEquals(new byte[] {8}, part.readFully(7, 1));
      assertEquals(1, checks.get());
      assertEquals("part-000007", part.name());
      assertEquals(8, part.length());
      assertSame(raw, part.unwrap());
    }
  }

  @Test
  void aPartNeverReadIsNeverChecked() throws IOException {
    AtomicInteger checks = new AtomicInteger();
    try (PreambleCheckedPart part = new PreambleCheckedPart(part(), p -> checks.incrementAndGet())) {
      assertEquals(8, part.length());
    }
    assertEquals(0, checks.get(), "opened ahead of a get that read another part: no read");
  }

  @Test
  void aDamagedPreambleFailsEveryRead() throws IOException {
    AtomicInteger checks = new AtomicInteger();
    try (PreambleCheckedPart part = new PreambleCheckedPart(part(), p -> {
      checks.incrementAndGet();
      throw new CorruptArchiveException("part-000007", 24, "part id 9, expected 7");
    })) {
      for (int i = 0; i < 3; i++) {
        CorruptArchiveException e =
            assertThrows(CorruptArchiveException.class, () -> part.readFully(0, 4));
        assertEquals("part-000007 at offset 24: part id 9, expected 7", e.getMessage());
      }
      assertEquals(1, checks.get(), "damage is not checked again");
    }
  }

  @Test
  void aCheckThatCouldNotReadIsTriedAgain() throws IOException {
    AtomicInteger checks = new AtomicInteger();
    try (PreambleCheckedPart part = new PreambleCheckedPart(part(), p -> {
      if (checks.incrementAndGet() == 1) {
        throw new IOException("DataNode went away");
      }
    })) {
      IOException e = assertThrows(IOException.class, () -> part.readFully(0, 4));
      assertEquals("DataNode went away", e.getMessage());
      assertArrayEquals(new byte[] {1, 2, 3, 4}, part.readFully(0, 4));
      assertEquals(2, checks.get());
    }
  }
}
