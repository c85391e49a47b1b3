package org.hpf.cli;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;

/**
 * Kerberos for one run, as Hadoop's tools do it: {@code hadoop.security.authentication=kerberos}
 * (in a site file, {@code --conf} or {@code -D}) uses the ticket cache of {@code kinit};
 * {@code --principal} with {@code --keytab} runs the command as that principal, logged in from
 * the keytab (and implies Kerberos). Hadoop reads its security settings once per process, from
 * its default resources only, so the run's configuration is handed to it here.
 */
final class KerberosLogin {
  private KerberosLogin() {}

  /**
   * Applies the run's security settings to this process; returns the user logged in from the
   * keytab, or null without one (then the process's login user, from the ticket cache, works).
   * {@code principal} and {@code keytab} are both null or both set (the caller checks).
   */
  static UserGroupInformation apply(Configuration conf, String principal, File keytab)
      throws IOException {
    if (keytab != null) {
      conf.set(CommonConfigurationKeys.HADOOP_SECURITY_AUTHENTICATION,
          AuthenticationMethod.KERBEROS.name().toLowerCase(Locale.ROOT));
    }
    boolean kerberos = SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.SIMPLE;
    if (kerberos != UserGroupInformation.isSecurityEnabled()) {
      UserGroupInformation.setConfiguration(conf);
    }
    // A user of its own rather than the process's login user, which a process that embeds the
    // command (a test beside an in-process cluster, a scheduler) may need for itself.
    return keytab == null ? null
        : UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal, keytab.getPath());
  }

  /** Runs {@code work} as {@code user}, or as the current user when it is null. */
  static int runAs(UserGroupInformation user, Callable<Integer> work) throws Exception {
    if (user == null) {
      return work.call();
    }
    try {
      return user.doAs((PrivilegedExceptionAction<Integer>) work::call);
    } catch (UndeclaredThrowableException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /**
   * The error a client without Kerberos credentials gets, said in one line that names the file
   * system and the fix; null when {@code error} is something else.
   */
  static NotAuthenticatedException explain(Throwable error, String fileSystem) {
    // Bounded: a cause chain may be circular.
    Throwable e = error;
    for (int depth = 0; e != null && depth < 100; depth++, e = e.getCause()) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("Client cannot authenticate via")
          || message.contains("SIMPLE authentication is not enabled")
          || message.contains("Failed to find any Kerberos tgt")
          || message.contains("GSS initiate failed")) {
        return new NotAuthenticatedException(fileSystem + " requires Kerberos and this user has"
            + " no valid ticket: run kinit, or pass --principal and --keytab", error);
      }
    }
    return null;
  }

  /** A file system refused this client: no Kerberos ticket, no keytab, no token. */
  static final class NotAuthenticatedException extends IOException {
    private static final long serialVersionUID = 1L;

    NotAuthenticatedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
