package org.hpf.bench;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hpf.bench.Results.CreationPoint;

/**
 * The report's table of HPF's creates, phase by phase, against their floor ({@link
 * CreationFloor}): where each create's wall time went, and how far it is from the least the
 * cluster could take.
 */
final class CreationPhases {
  /** The target: a create takes at most this many times its floor. */
  static final double TARGET = 1.3;

  private CreationPhases() {}

  static void markdown(StringBuilder md, Results r) {
    List<CreationPoint> creates = r.creation.stream()
        .filter(c -> c.system().equals("HPF") && c.details().get("phasesMillis") instanceof Map)
        .toList();
    if (creates.isEmpty()) {
      return;
    }
    md.append("### HPF create by phase, and its floor\n\nSeconds of each phase of the create "
        + "(they add up to its wall time), and the floor: one read of every source plus "
        + "writing the archive's bytes as one plain file of the archive's replication.\n\n");
    md.append("| |");
    creates.forEach(c -> md.append(String.format(Locale.ROOT, " %,d files |", c.files())));
    md.append("\n|---|");
    creates.forEach(c -> md.append("---:|"));
    md.append('\n');
    Set<String> phases = new LinkedHashSet<>();
    creates.forEach(c -> phases.addAll(phasesOf(c).keySet()));
    for (String phase : phases) {
      row(md, phase, creates, c -> phasesOf(c).get(phase));
    }
    row(md, "**sum of the phases**", creates, c -> phasesOf(c).values().stream()
        .mapToDouble(Number::doubleValue).sum());
    row(md, "**wall time**", creates, c -> c.details().get("createWallMillis"));
    row(md, "floor: read the sources", creates, c -> c.details().get("floorReadMillis"));
    row(md, "floor: write one plain file", creates, c -> c.details().get("floorWriteMillis"));
    row(md, "**floor**", creates, c -> c.details().get("floorMillis"));
    md.append("| **create ÷ floor** (target ").append(TARGET).append(") |");
    for (CreationPoint c : creates) {
      Object ratio = c.details().get("createOverFloor");
      md.append(ratio instanceof Number n ? String.format(Locale.ROOT, " %.2f |", n.doubleValue())
          : " |");
    }
    md.append("\n\n");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Number> phasesOf(CreationPoint c) {
    return (Map<String, Number>) c.details().get("phasesMillis");
  }

  private static void row(StringBuilder md, String label, List<CreationPoint> creates,
      java.util.function.Function<CreationPoint, Object> millis) {
    md.append("| ").append(label).append(" |");
    for (CreationPoint c : creates) {
      Object value = millis.apply(c);
      md.append(value instanceof Number n
          ? String.format(Locale.ROOT, " %.3f |", n.doubleValue() / 1e3) : " |");
    }
    md.append('\n');
  }
}
