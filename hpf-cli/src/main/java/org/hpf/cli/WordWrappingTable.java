package org.hpf.cli;

import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Help.TextTable;

/**
 * A help table whose wrapping columns break lines at spaces only. Picocli's own breaks where
 * {@link java.text.BreakIterator} allows, which includes dots, colons and slashes: it cut
 * {@code mapreduce.framework.name} and {@code hdfs://namenode:8020} in two. A word longer than
 * its column is still cut, as before.
 */
final class WordWrappingTable extends TextTable {
  private final ColorScheme scheme;

  WordWrappingTable(ColorScheme scheme, Column[] columns, int indentWrappedLines) {
    super(scheme, columns);
    this.scheme = scheme;
    this.indentWrappedLines = indentWrappedLines;
  }

  @Override
  public Cell putValue(int row, int col, Text value) {
    Column column = columns()[col];
    if (value == null || column.overflow != Column.Overflow.WRAP) {
      return super.putValue(row, col, value);
    }
    String plain = value.plainString();
    int start = 0;
    int indent = column.indent;
    while (true) {
      int end = lineEnd(plain, start, column.width - indent);
      Text line = value.substring(start, end);
      if (indent > column.indent) {
        // Picocli indents continuation lines by indentWrappedLines more; a new cell is not one.
        line = scheme.text(" ".repeat(indent - column.indent)).concat(line);
      }
      Cell cell = super.putValue(row, col, line);
      start = end;
      while (start < plain.length() && plain.charAt(start) == ' ') {
        start++;
      }
      if (start >= plain.length()) {
        return cell;
      }
      addEmptyRow();
      row = rowCount() - 1;
      indent = column.indent + indentWrappedLines;
    }
  }

  /**
   * Where the line that starts at {@code start} ends: after the last word that fits in
   * {@code room} columns, or after the first word if none fits.
   */
  private static int lineEnd(String text, int start, int room) {
    if (text.length() - start <= room) {
      return text.length();
    }
    int space = text.lastIndexOf(' ', start + room);
    if (space > start) {
      return space;
    }
    int next = text.indexOf(' ', start);
    return next < 0 ? text.length() : next;
  }
}
