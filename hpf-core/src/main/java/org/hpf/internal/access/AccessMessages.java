package org.hpf.internal.access;

import java.util.List;
import java.util.stream.Collectors;

/** How an archive's access decision is told to its user. */
public final class AccessMessages {
  /** Owners named in one message at most. */
  private static final int NAMED = 5;

  private AccessMessages() {}

  /** One note per access the decision took away, with an example source that caused it. */
  public static List<String> narrowed(String archive, AccessPlan.Decision decision) {
    return decision.narrowed().stream()
        .map(what -> "access narrowed on " + archive + ": " + what)
        .collect(Collectors.toList());
  }

  /** Why a change is refused: who would lose access to what, and how to keep it. */
  public static String refusal(String archive, AccessPlan.Decision decision) {
    StringBuilder b = new StringBuilder("archiving these sources into ").append(archive)
        .append(" would take their own files from ");
    List<AccessPlan.Loss> losses = decision.losses();
    for (int i = 0; i < Math.min(NAMED, losses.size()); i++) {
      AccessPlan.Loss loss = losses.get(i);
      b.append(i == 0 ? "" : ", ").append(loss.owner()).append(" (");
      if (loss.members() < 0) {
        b.append("the members archived so far)");
      } else {
        b.append(loss.members()).append(loss.members() == 1 ? " file" : " files")
            .append(", e.g. ").append(loss.example()).append(')');
      }
    }
    if (losses.size() > NAMED) {
      b.append(" and ").append(losses.size() - NAMED).append(" more owners");
    }
    b.append(": the archive may be read only by ").append(decision.access().readers())
        .append(", since some sources are readable by nobody else. Nothing was written. To keep"
            + " their access, archive each owner's files into an archive of their own, made by"
            + " that owner (or given to them after), or append to an archive whose readers may"
            + " read these sources; to go ahead anyway, pass --allow-access-loss"
            + " (WriteSettings.allowAccessLoss).");
    return b.toString();
  }
}
