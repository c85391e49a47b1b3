package org.hpf.internal.access;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Whether this user is the file system's superuser, who may give files to any owner: root on
 * the local file system; on HDFS the NameNode's own user (the owner of {@code /}) or a member of
 * its superuser group ({@code dfs.permissions.superusergroup}).
 */
public final class Superuser {
  private Superuser() {}

  /** Whether the current user may give files of {@code fs} to any owner. */
  public static boolean at(FileSystem fs) throws IOException {
    if (fs instanceof RawLocalFileSystem || fs instanceof org.apache.hadoop.fs.LocalFileSystem) {
      return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    String supergroup = fs.getConf().get("dfs.permissions.superusergroup", "supergroup");
    return Arrays.asList(user.getGroupNames()).contains(supergroup)
        || user.getShortUserName().equals(fs.getFileStatus(new Path("/")).getOwner());
  }
}
