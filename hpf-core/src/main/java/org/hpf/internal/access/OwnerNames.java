package org.hpf.internal.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.util.HashMap;
import java.util.Map;

/**
 * The names of local users and groups by their ids, each found once: the JDK asks the system's
 * user database ({@code getpwuid}, {@code getgrgid}) on every status that names an owner, and a
 * walk of many files of few owners would ask it again for each. Kept for one walk, whose files
 * change hands rarely enough that a name found at its start still holds at its end.
 */
public final class OwnerNames {
  private final Map<Integer, String> users = new HashMap<>();
  private final Map<Integer, String> groups = new HashMap<>();
  private long lookups;

  /**
   * The name of user {@code uid}, asked of {@code file} (which it owns) the first time:
   * {@code file}'s status names its owner and group, both remembered.
   */
  public String user(int uid, java.nio.file.Path file) throws IOException {
    String name = users.get(uid);
    return name != null ? name : lookUp(file, uid, true);
  }

  /** The name of group {@code gid}, as {@link #user}. */
  public String group(int gid, java.nio.file.Path file) throws IOException {
    String name = groups.get(gid);
    return name != null ? name : lookUp(file, gid, false);
  }

  /** How many times the user database was asked (once per new user or group). */
  public long lookups() {
    return lookups;
  }

  private String lookUp(java.nio.file.Path file, int id, boolean user) throws IOException {
    lookups++;
    Map<String, Object> named = Files.readAttributes(file, "unix:uid,owner,gid,group",
        LinkOption.NOFOLLOW_LINKS);
    users.put((Integer) named.get("uid"), ((UserPrincipal) named.get("owner")).getName());
    groups.put((Integer) named.get("gid"), ((GroupPrincipal) named.get("group")).getName());
    String name = user ? users.get(id) : groups.get(id);
    // Owner changed between the two looks: the name of its owner now.
    return name != null ? name : user ? ((UserPrincipal) named.get("owner")).getName()
        : ((GroupPrincipal) named.get("group")).getName();
  }
}
