/**
 * The on-disk format (docs/FORMAT.md): file headers and footers, records, entries, manifests,
 * names files and journals.
 *
 * <p>Internal: not API, may change in any release. Use {@link org.hpf.HpfArchive}.
 */
package org.hpf.internal.format;
