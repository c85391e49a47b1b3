package org.hpf.fs;

import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The mapping between {@code hpf://} paths and the archive and member they name.
 *
 * <pre>
 *   hpf://&lt;scheme&gt;-&lt;authority&gt;/&lt;path/to/archive.hpf&gt;/&lt;member name&gt;
 *   hpf:///&lt;path/to/archive.hpf&gt;/&lt;member name&gt;          (the default file system)
 * </pre>
 *
 * The authority names the underlying file system as HAR does: everything before the first
 * {@code -} is its scheme, the rest its authority ({@code hpf://hdfs-nn:8020/...} is on
 * {@code hdfs://nn:8020/}, {@code hpf://file-/...} on {@code file:///}). In the path, the first
 * component whose name ends in {@code .hpf} is the archive directory and what follows is a member
 * name or an implied directory; a path with no such component is inside an archive at the root
 * of the underlying file system (as when a ViewFs mount or a chrooted file system makes an archive
 * its root).
 */
final class HpfPaths {
  static final String SCHEME = "hpf";
  static final String ARCHIVE_SUFFIX = ".hpf";

  /** An archive (a qualified path on the underlying file system) and a name inside it. */
  record Location(Path archive, String member) {
    boolean isArchiveRoot() {
      return member.isEmpty();
    }
  }

  private HpfPaths() {}

  /** The URI of the underlying file system named by an hpf URI's authority. */
  static URI underlyingUri(URI hpf, Configuration conf) throws InvalidHpfUriException {
    String authority = hpf.getAuthority();
    if (authority == null || authority.isEmpty()) {
      return FileSystem.getDefaultUri(conf);
    }
    int dash = authority.indexOf('-');
    if (dash <= 0) {
      throw new InvalidHpfUriException(hpf, "the authority '" + authority
          + "' does not start with the scheme of the file system holding the archive");
    }
    String scheme = authority.substring(0, dash);
    String rest = authority.substring(dash + 1);
    try {
      return new URI(scheme, rest.isEmpty() ? null : rest, "/", null, null);
    } catch (URISyntaxException e) {
      throw new InvalidHpfUriException(hpf, "'" + rest + "' is not a valid authority for "
          + scheme + ": " + e.getMessage(), e);
    }
  }

  /** The hpf authority for an underlying file system: {@code <scheme>-<authority>}. */
  static String hpfAuthority(URI underlying) {
    String authority = underlying.getAuthority();
    return underlying.getScheme() + "-" + (authority == null ? "" : authority);
  }

  /**
   * The archive and member of an absolute hpf path.
   *
   * @param underlyingRoot the root of the underlying file system, qualified
   */
  static Location locate(Path hpfPath, Path underlyingRoot) {
    String path = hpfPath.toUri().getPath();
    String[] components = path.split("/");
    StringBuilder archive = new StringBuilder();
    for (int i = 0; i < components.length; i++) {
      if (components[i].isEmpty()) {
        continue;
      }
      archive.append('/').append(components[i]);
      if (components[i].endsWith(ARCHIVE_SUFFIX)) {
        return new Location(child(underlyingRoot, archive.toString()), join(components, i + 1));
      }
    }
    return new Location(underlyingRoot, join(components, 0));
  }

  /** The hpf path of {@code member} ("" for the archive itself) of {@code archive}. */
  static Path toHpf(String hpfAuthority, Path archive, String member) {
    String dir = archive.toUri().getPath();
    String path;
    if (member.isEmpty()) {
      path = dir;
    } else {
      path = (dir.endsWith("/") ? dir : dir + "/") + member;
    }
    return new Path(SCHEME, hpfAuthority, path);
  }

  /** A path below {@code root} built without parsing (names may hold ':'). */
  private static Path child(Path root, String absolute) {
    URI uri = root.toUri();
    return new Path(uri.getScheme(), uri.getAuthority(), absolute);
  }

  private static String join(String[] components, int from) {
    StringBuilder member = new StringBuilder();
    for (int i = from; i < components.length; i++) {
      if (components[i].isEmpty()) {
        continue;
      }
      if (member.length() > 0) {
        member.append('/');
      }
      member.append(components[i]);
    }
    return member.toString();
  }
}
