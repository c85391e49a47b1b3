package org.hpf.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes maps, lists, strings, numbers, booleans and nulls as indented JSON (RFC 8259). Enough
 * for {@code hpf info --json}; keys keep the maps' order.
 */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, 0);
    return out.append('\n').toString();
  }

  private static void write(StringBuilder out, Object value, int indent) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        pad(out, indent + 1);
        string(out, String.valueOf(e.getKey()));
        out.append(": ");
        write(out, e.getValue(), indent + 1);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      pad(out, indent);
      out.append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        pad(out, indent + 1);
        write(out, list.get(i), indent + 1);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      pad(out, indent);
      out.append(']');
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        out.append("null");
      } else {
        String text = String.format(Locale.ROOT, "%.4f", d);
        text = text.replaceAll("0+$", "");
        out.append(text.endsWith(".") ? text + "0" : text);
      }
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      string(out, value.toString());
    }
  }

  private static void pad(StringBuilder out, int indent) {
    out.append("  ".repeat(indent));
  }

  static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
