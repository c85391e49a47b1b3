package org.hpf;

/**
 * What walking the sources does with a symbolic link below a source root (a root given by name
 * is always followed). hpf stores files, not links; docs/CLI.md explains the default.
 */
public enum SymlinkPolicy {
  /** Archive what a link points to: a file's bytes under the link's name, a directory's tree
   * below it. A link that would walk a directory inside itself fails (a loop). */
  FOLLOW,
  /** Leave links out, and count them (the default: the tree's files, each once). */
  SKIP,
  /** Fail on the first link. */
  FAIL
}
