package org.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import org.hpf.CorruptArchiveException;
import org.junit.jupiter.api.Test;

/**
 * Function sections crafted by someone who recomputes the checksums (so only the decoder stands
 * between them and the reader's heap): an array length far beyond the section's bytes, and a
 * class a function is not made of, are refused before anything is allocated.
 */
class CraftedFunctionTest {
  private static List<byte[]> keys(int n) {
    Random random = new Random(n);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] key = new byte[16];
      random.nextBytes(key);
      keys.add(key);
    }
    keys.sort(java.util.Arrays::compareUnsigned);
    return keys;
  }

  /** Offsets of the length fields of serialized {@code long[]}s (class new or referenced). */
  private static List<Integer> longArrayLengths(byte[] bytes) {
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i + 24 < bytes.length; i++) {
      if (bytes[i] == 0x75 && bytes[i + 1] == 0x72 && bytes[i + 2] == 0 && bytes[i + 3] == 2
          && bytes[i + 4] == '[' && bytes[i + 5] == 'J') {
        at.add(i + 6 + 8 + 1 + 2 + 1 + 1); // uid, flags, no fields, end block, no superclass
      } else if (bytes[i] == 0x75 && bytes[i + 1] == 0x71) {
        at.add(i + 6); // a reference to the class descriptor: its 4-byte handle
      }
    }
    return at;
  }

  @Test
  void aHugeArrayLengthIsRefusedBeforeItIsAllocated() throws Exception {
    int size = 1000;
    byte[] real = BucketFunction.buildHollowTrie(keys(size), false).toBytes();
    BucketFunction.fromBytes(BucketFunction.CODEC_HOLLOW_TRIE, real, 0, real.length, size, "ok");
    List<Integer> lengths = longArrayLengths(real);
    assertTrue(!lengths.isEmpty(), "the function has long[] words");
    int crafted = 0;
    for (int at : lengths) {
      int declared = ByteBuffer.wrap(real, at, 4).getInt();
      if (declared < 0 || declared > real.length) {
        continue; // not an array length after all
      }
      for (int huge : new int[] {0x0FFFFFFF, 0x7FFFFFF0}) {
        byte[] bytes = real.clone();
        ByteBuffer.wrap(bytes, at, 4).putInt(huge);
        CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
            () -> BucketFunction.fromBytes(BucketFunction.CODEC_HOLLOW_TRIE, bytes, 0,
                bytes.length, size, "crafted"));
        assertTrue(e.getCause() instanceof InvalidClassException, "refused by the filter, not "
            + "after allocating: " + e.getCause());
        crafted++;
      }
    }
    assertTrue(crafted >= 2, "crafted " + crafted);
  }

  @Test
  void aClassAFunctionIsNotMadeOfIsRefused() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      HashMap<String, Long> gadget = new HashMap<>();
      gadget.put("x", 1L);
      out.writeObject(gadget);
    }
    byte[] section = bytes.toByteArray();
    CorruptArchiveException e = assertThrows(CorruptArchiveException.class,
        () -> BucketFunction.fromBytes(BucketFunction.CODEC_HOLLOW_TRIE, section, 0,
            section.length, 1, "gadget"));
    assertTrue(e.getCause() instanceof InvalidClassException, String.valueOf(e.getCause()));
    assertEquals("gadget", e.getMessage().substring(0, 6));
  }
}
