package org.hpf.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Sizes in bytes with an optional binary suffix: {@code 65536}, {@code 64k}, {@code 64m},
 * {@code 1g}, {@code 1t} (also {@code 64K}, {@code 64MB}, {@code 64MiB}); k is 1024.
 */
final class SizeConverter implements ITypeConverter<Long> {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(?:([kmgtp])(?:i?b)?|b)?", Pattern.CASE_INSENSITIVE);

  @Override
  public Long convert(String value) {
    return parse(value);
  }

  static long parse(String value) {
    Matcher m = SIZE.matcher(value.strip());
    if (!m.matches()) {
      throw new TypeConversionException("'" + value + "' is not a size (examples: 4096, 64k,"
          + " 64m, 1g)");
    }
    int shift = m.group(2) == null ? 0
        : 10 * ("kmgtp".indexOf(m.group(2).toLowerCase(Locale.ROOT)) + 1);
    try {
      long number = Long.parseLong(m.group(1));
      if (number > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return number << shift;
    } catch (NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is too large");
    }
  }
}
