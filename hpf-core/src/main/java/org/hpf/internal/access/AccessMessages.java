package org.hpf.internal.access;

import java.util.ArrayList;
import java.util.List;

/** How an archive's access decision is told to its user. */
public final class AccessMessages {
  /** Owners named in one message at most. */
  private static final int NAMED = 5;
  /**
   * How a refusal says to go ahead, naming the library's setting; the command line names its
   * flag instead.
   */
  public static final String ALLOW_HINT =
      "allow the loss (WriteSettings.Builder.allowAccessLoss)";
  /**
   * How a refusal of several owners' files names the one step that keeps their access; the
   * command line names its option instead.
   */
  public static final String SPLIT_HINT = "a split by owner makes them in one run";

  private AccessMessages() {}

  /**
   * One note per access the decision took away, with an example source that caused it; and,
   * where owners lose access to their own files (as allowed), one that names each with how many
   * of their files.
   */
  public static List<String> narrowed(String archive, AccessPlan.Decision decision) {
    List<String> notes = new ArrayList<>();
    for (String what : decision.narrowed()) {
      notes.add("access narrowed on " + archive + ": " + what);
    }
    if (decision.losesAccess()) {
      notes.add("access taken, as allowed, on " + archive + ": " + owners(decision.losses())
          + " can no longer read their own files through it; it may be read only by "
          + decision.access().readers());
    }
    return notes;
  }

  /** Why a change is refused: who would lose access to what, and how to keep it. */
  public static String refusal(String archive, AccessPlan.Decision decision) {
    List<AccessPlan.Loss> losses = decision.losses();
    return "archiving these sources into " + archive + " would take their own files from "
        + owners(losses) + ": the archive may be read only by " + decision.access().readers()
        + ", since some sources are readable by nobody else. Nothing was written. To keep their"
        + " access, archive each owner's files into an archive of their own, made by that owner"
        + " (or given to them after" + (losses.size() > 1 ? "; " + SPLIT_HINT : "") + "), or"
        + " append to an archive whose readers may read these sources; to go ahead anyway, "
        + ALLOW_HINT + ".";
  }

  /** The owners who lose access, each with how many files and an example. */
  private static String owners(List<AccessPlan.Loss> losses) {
    StringBuilder b = new StringBuilder();
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
    return b.toString();
  }
}
