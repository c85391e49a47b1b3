package org.hpf.cli;

import java.util.List;
import java.util.Map;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli's help with every wrapped text (description, options, parameters, exit codes,
 * footer) broken at spaces only, through {@link WordWrappingTable}: the help names
 * configuration keys and URIs a user copies whole.
 */
final class WordWrappingHelp extends Help {
  WordWrappingHelp(CommandSpec spec, ColorScheme scheme) {
    super(spec, scheme);
  }

  @Override
  public Layout createDefaultLayout(List<OptionSpec> options,
      List<PositionalParamSpec> positionals, ColorScheme scheme) {
    Layout layout = super.createDefaultLayout(options, positionals, scheme);
    return new Layout(scheme, copy(layout.textTable()), layout.optionRenderer(),
        layout.parameterRenderer());
  }

  @Override
  public TextTable createTextTable(Map<?, ?> map) {
    // Picocli's table, filled, gives the columns; the rows are added again to one that wraps.
    TextTable table = copy(super.createTextTable(map));
    if (map != null) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        table.addRowValues(String.valueOf(entry.getKey()), String.valueOf(entry.getValue()));
      }
    }
    return table;
  }

  @Override
  public String description(Object... params) {
    return wrap(commandSpec().usageMessage().description(), params);
  }

  @Override
  public String header(Object... params) {
    return wrap(commandSpec().usageMessage().header(), params);
  }

  @Override
  public String footer(Object... params) {
    return wrap(commandSpec().usageMessage().footer(), params);
  }

  private String wrap(String[] paragraphs, Object... params) {
    if (paragraphs == null || paragraphs.length == 0) {
      return "";
    }
    TextTable table = new WordWrappingTable(colorScheme(), new Column[] {
        new Column(commandSpec().usageMessage().width(), 0, Column.Overflow.WRAP)}, 0);
    for (String paragraph : paragraphs) {
      for (Ansi.Text line : colorScheme().text(String.format(paragraph, params)).splitLines()) {
        table.addRowValues(line);
      }
    }
    return table.toString();
  }

  /** An empty table shaped as {@code model}, that wraps at spaces. */
  private TextTable copy(TextTable model) {
    return new WordWrappingTable(colorScheme(), model.columns(), model.indentWrappedLines);
  }
}
