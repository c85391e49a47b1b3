/** Work an administrator does across many users' files: one archive per owner. */
package org.hpf.internal.admin;
