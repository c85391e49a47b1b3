package org.hpf.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The JSON of {@code hpf info --json} and {@code hpf cache --json}, written by Jackson: maps in
 * their order, two-space indentation, one array element per line, fractions to four decimals
 * and NaN or infinite values as null.
 */
final class Json {
  private static final ObjectWriter WRITER = writer();

  private Json() {}

  static String write(Object value) {
    try {
      return WRITER.writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // only maps, lists and plain values are written
    }
  }

  private static ObjectWriter writer() {
    SimpleModule fractions = new SimpleModule("fractions");
    JsonSerializer<Number> fraction = new JsonSerializer<>() {
      @Override
      public void serialize(Number value, JsonGenerator out, SerializerProvider provider)
          throws IOException {
        double d = value.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          out.writeNull();
          return;
        }
        String text = String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", "");
        out.writeNumber(text.endsWith(".") ? text + "0" : text);
      }
    };
    fractions.addSerializer(Double.class, fraction);
    fractions.addSerializer(Float.class, fraction);
    DefaultPrettyPrinter pretty = new DefaultPrettyPrinter(Separators.createDefaultInstance()
        .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
        .withObjectEmptySeparator("")
        .withArrayEmptySeparator(""));
    pretty.indentArraysWith(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"));
    pretty.indentObjectsWith(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"));
    return new ObjectMapper().registerModule(fractions).writer(pretty);
  }
}
