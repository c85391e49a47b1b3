package org.hpf.internal.access;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides who may read an archive from who could read each of its members' sources: nobody
 * reads through the archive's files what they could not read before. Sees every member once
 * (holding one entry per distinct owner and group, not per member), then gives the access its
 * directory gets, what that took from readers of some sources, and the owners who could read
 * their own files before and would not through the archive.
 *
 * <p>Group membership is unknown to a client, so the plan is conservative: the archive's group
 * may read only when every source admits that one group; an owner keeps access when the archive
 * admits everyone, or is theirs, or admits the group of their file.
 */
public final class AccessPlan {
  /** Permission bits of the group and of others on the archive directory. */
  public static final int GROUP_BITS = 0070;
  public static final int OTHER_BITS = 0007;

  private long members;
  /** A source not everyone may read, once one is counted (then not everyone reads the archive). */
  private String private1;
  /** The one group every source admits (meaningful once {@link #private1} is set). */
  private String group;
  private boolean groupPossible = true;
  /** A source that does not admit {@link #group}, once one is counted. */
  private String outsideGroup;
  private Tally everyoneReads;
  private final Map<String, Tally> groupReads = new LinkedHashMap<>();
  /** Sources each owner could read, and the groups of those sources. */
  private final Map<String, Tally> owners = new LinkedHashMap<>();

  /** How many sources share a property, the first of them, and their groups. */
  private static final class Tally {
    long count;
    final String example;
    final java.util.Set<String> groups = new java.util.HashSet<>();

    Tally(String example) {
      this.example = example;
    }
  }

  /** An owner who would lose access to their own members. */
  public record Loss(String owner, long members, String example) {}

  /**
   * Who may read the archive, what that took from readers of some sources (or of the archive's
   * members so far), and who would lose access to their own files.
   */
  public record Decision(RootAccess access, List<String> narrowed, List<Loss> losses) {
    /** True when some owner would lose access to their own files. */
    public boolean losesAccess() {
      return !losses.isEmpty();
    }
  }

  /**
   * Counts a member.
   *
   * @param source where the member comes from (for messages)
   * @param owner the source's owner, or null when unknown
   * @param fileGroup the source's group, or null when unknown
   * @param readers who could read the source
   */
  public synchronized void add(String source, String owner, String fileGroup, Readers readers) {
    members++;
    if (readers.everyone()) {
      tally(everyoneReads == null ? everyoneReads = new Tally(source) : everyoneReads);
    } else {
      String described = source + " (readable by " + readers + " only)";
      if (private1 == null) {
        private1 = described;
        group = readers.group();
      }
      if (groupPossible && !readers.admitsGroup(group)) {
        groupPossible = false;
        outsideGroup = described;
      }
      if (readers.group() != null) {
        tally(groupReads.computeIfAbsent(readers.group(), g -> new Tally(source)));
      }
    }
    if (owner != null && readers.admitsUser(owner)) {
      Tally own = owners.computeIfAbsent(owner, k -> new Tally(source));
      tally(own);
      if (fileGroup != null) {
        own.groups.add(fileGroup);
      }
    }
  }

  private static void tally(Tally tally) {
    tally.count++;
  }

  /** A plan that has counted the members of both. */
  public AccessPlan merge(AccessPlan other) {
    AccessPlan both = new AccessPlan();
    both.absorb(this);
    both.absorb(other);
    return both;
  }

  private synchronized void absorb(AccessPlan other) {
    synchronized (other) {
      members += other.members;
      if (other.everyoneReads != null) {
        add(everyoneReads, other.everyoneReads, t -> everyoneReads = t);
      }
      if (other.private1 != null) {
        if (private1 == null) {
          private1 = other.private1;
          group = other.group;
          groupPossible = other.groupPossible;
          outsideGroup = other.outsideGroup;
        } else if (groupPossible && (!other.groupPossible || group == null
            || !group.equals(other.group))) {
          groupPossible = false;
          outsideGroup = other.groupPossible ? other.private1 : other.outsideGroup;
        }
      }
      other.groupReads.forEach((g, t) -> add(groupReads.get(g), t, s -> groupReads.put(g, s)));
      other.owners.forEach((k, t) -> add(owners.get(k), t, s -> owners.put(k, s)));
    }
  }

  private static void add(Tally into, Tally from, java.util.function.Consumer<Tally> put) {
    Tally sum = new Tally(into != null ? into.example : from.example);
    sum.count = (into != null ? into.count : 0) + from.count;
    sum.groups.addAll(from.groups);
    if (into != null) {
      sum.groups.addAll(into.groups);
    }
    put.accept(sum);
  }

  /** Members counted. */
  public synchronized long members() {
    return members;
  }

  /**
   * The access of an archive directory that now has {@code current} (for a new archive, what
   * the file system gave it) and is to hold the members counted: permission bits are only ever
   * cleared; on a new archive ({@code creating}) the group becomes the one group every source
   * admits, if there is one.
   *
   * @param existingOwners the owners of the archive's members so far, each with the groups of
   *     their members (empty for a new archive)
   */
  public synchronized Decision decide(RootAccess current, boolean creating,
      Map<String, java.util.Set<String>> existingOwners) {
    boolean everyone = private1 == null;
    int mode = current.mode();
    String finalGroup = current.group();
    if (!everyone) {
      mode &= ~OTHER_BITS;
      boolean groupKept = groupPossible && group != null
          && (creating || group.equals(current.group()));
      if (groupKept) {
        finalGroup = group;
      } else {
        mode &= ~GROUP_BITS;
      }
    }
    RootAccess decided = new RootAccess(current.owner(), finalGroup, mode);
    Readers archive = decided.readers();
    List<String> notes = narrowed(current, archive);
    List<Loss> losses = losses(decided, archive);
    if (!creating && !archive.covers(current.readers())) {
      notes.add(0, current.readers() + " could read the archive's members so far but not any "
          + "more, since it now also holds " + private1);
      existingOwners.forEach((owner, groups) -> {
        if (!owner.equals(decided.owner()) && !archive.everyone()
            && groups.stream().noneMatch(archive::admitsGroup)) {
          losses.add(0, new Loss(owner, -1, "members archived so far"));
        }
      });
    }
    return new Decision(decided, notes, losses);
  }

  /**
   * The owners of an archive's members, each with the groups of their members, from its
   * dictionary of access classes; an archive that records none (older formats) is its
   * directory's owner's.
   */
  public static Map<String, java.util.Set<String>> ownersOf(
      List<org.hpf.MemberAccess> dictionary, RootAccess root) {
    Map<String, java.util.Set<String>> owners = new LinkedHashMap<>();
    if (dictionary.isEmpty()) {
      owners.put(root.owner(), java.util.Set.of(root.group()));
    }
    for (org.hpf.MemberAccess access : dictionary) {
      owners.computeIfAbsent(access.owner(), o -> new java.util.HashSet<>()).add(access.group());
    }
    return owners;
  }

  /** Readers of some sources the archive leaves out, each with why. */
  private List<String> narrowed(RootAccess current, Readers archive) {
    List<String> notes = new ArrayList<>();
    String because = groupPossible || outsideGroup == null ? private1 : outsideGroup;
    if (everyoneReads != null && !archive.everyone()
        && (current.mode() & OTHER_BITS) != 0) {
      notes.add("everyone could read " + count(everyoneReads) + " but not the archive, which "
          + "also holds " + private1);
    }
    groupReads.forEach((g, tally) -> {
      if (!archive.admitsGroup(g)) {
        notes.add("group " + g + " could read " + count(tally) + " but not the archive, which "
            + "also holds " + because);
      }
    });
    return notes;
  }

  private static String count(Tally tally) {
    return tally.count == 1 ? tally.example
        : tally.count + " of the sources (e.g. " + tally.example + ")";
  }

  /**
   * Owners who could read their own sources and could not read the archive. An owner keeps
   * access through the archive's group when it is the group of one of their sources: likely,
   * though not certainly, a group they are in (this only decides whether to refuse; who may
   * read is decided without it).
   */
  private List<Loss> losses(RootAccess decided, Readers archive) {
    List<Loss> losses = new ArrayList<>();
    owners.forEach((owner, tally) -> {
      boolean keeps = owner.equals(decided.owner()) || archive.everyone()
          || tally.groups.stream().anyMatch(archive::admitsGroup);
      if (!keeps) {
        losses.add(new Loss(owner, tally.count, tally.example));
      }
    });
    return losses;
  }
}
