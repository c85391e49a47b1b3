package org.hpf.internal.write;

import java.io.IOException;
import java.util.Map;
import org.hpf.AccessLossException;
import org.hpf.internal.access.AccessMessages;
import org.hpf.internal.access.AccessPlan;
import org.hpf.internal.access.RootAccess;
import org.hpf.internal.format.Manifest;
import org.hpf.internal.io.ArchiveStorage;

/**
 * Settles who may read an archive once new sources join it, before a byte of them is written:
 * the one rule both writers (in-process and the MapReduce job) keep.
 */
final class AccessSettlement {
  private AccessSettlement() {}

  /**
   * Decides the archive's access from {@code plan}; refuses a change that takes users' access
   * to their own files unless the options allow it; narrows an archive that has a generation
   * at once. A new archive ({@code base} null) is left as it is: its writer applies the
   * decision.
   *
   * @param current the archive directory's access now (for a new one, what the file system
   *     gave it)
   * @param base the archive's newest generation, or null when it has none
   */
  static AccessPlan.Decision settle(ArchiveStorage storage, AccessPlan plan, RootAccess current,
      Manifest base, WriterOptions options) throws IOException {
    // An archive made for another user is judged as theirs: it is given to them once written.
    RootAccess judged = options.owner() == null ? current
        : new RootAccess(options.owner(), current.group(), current.mode());
    // An archive without members yet takes its access from its first ones, as a new one does.
    boolean fresh = base == null || base.fileCount() == 0;
    AccessPlan.Decision decision = plan.decide(judged, fresh, fresh ? Map.of()
        : AccessPlan.ownersOf(base.accesses(), judged));
    if (decision.losesAccess() && !options.settings().allowAccessLoss()) {
      throw new AccessLossException(AccessMessages.refusal(storage.location(), decision));
    }
    if (base != null && !decision.access().equals(judged)) {
      storage.setRootAccess(decision.access());
    }
    return decision;
  }
}
