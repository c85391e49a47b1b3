package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class SizeConverterTest {
  @Test
  void suffixes() {
    assertEquals(4096, SizeConverter.parse("4096"));
    assertEquals(4096, SizeConverter.parse("4096b"));
    assertEquals(64L << 10, SizeConverter.parse("64k"));
    assertEquals(64L << 20, SizeConverter.parse("64m"));
    assertEquals(64L << 20, SizeConverter.parse("64M"));
    assertEquals(64L << 20, SizeConverter.parse("64MB"));
    assertEquals(64L << 20, SizeConverter.parse("64MiB"));
    assertEquals(1L << 30, SizeConverter.parse("1g"));
    assertEquals(2L << 40, SizeConverter.parse("2t"));
  }

  @Test
  void rejects() {
    for (String bad : new String[] {"", "m", "-1", "1.5g", "12q", "1gg", "99999999999999999999",
        "9000000p"}) {
      assertThrows(TypeConversionException.class, () -> SizeConverter.parse(bad), bad);
    }
  }
}
