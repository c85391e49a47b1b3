package org.hpf.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * Says in one line what an object store's refusal means. S3A reports a bucket that does not
 * exist and a request the store refused (HTTP 403) with the SDK's messages, which name neither
 * the bucket nor where the credentials came from; these are what a user needs to act. Classes
 * are matched by name: {@code hadoop-aws} may be missing from the class path.
 */
final class ObjectStoreErrors {
  private static final String UNKNOWN_STORE = "org.apache.hadoop.fs.s3a.UnknownStoreException";
  /** Hadoop's providers when {@code fs.s3a.aws.credentials.provider} is not set. */
  private static final String DEFAULT_PROVIDERS = "S3A's default chain (TemporaryAWSCredentials"
      + "Provider, SimpleAWSCredentialsProvider, EnvironmentVariableCredentialsProvider,"
      + " IAMInstanceCredentialsProvider)";

  /** A bucket that does not exist: exit code 3, as for a missing archive. */
  static final class BucketNotFoundException extends FileNotFoundException {
    private static final long serialVersionUID = 1L;

    BucketNotFoundException(String message, Throwable cause) {
      super(message);
      initCause(cause);
    }
  }

  /** The store refused the request: the credentials, or the bucket's policy. */
  static final class StoreAccessDeniedException extends IOException {
    private static final long serialVersionUID = 1L;

    StoreAccessDeniedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private ObjectStoreErrors() {}

  /**
   * The one-line error for {@code error}, or null when it is not an object store's refusal.
   * {@code fileSystem} is the last non-local file system the command resolved (the bucket when
   * the exception names no path).
   */
  static IOException explain(Throwable error, Configuration conf, String fileSystem) {
    // Bounded: a cause chain may be circular.
    Throwable e = error;
    for (int depth = 0; e != null && depth < 100; depth++, e = e.getCause()) {
      if (UNKNOWN_STORE.equals(e.getClass().getName())) {
        String bucket = bucket(e.getMessage(), fileSystem);
        return new BucketNotFoundException("bucket " + bucket + " does not exist (s3a://"
            + bucket + "): check its name, and the endpoint and region it is served from"
            + " (fs.s3a.endpoint, fs.s3a.endpoint.region)", error);
      }
      if (e instanceof AccessDeniedException denied && isS3a(denied.getFile(), fileSystem)) {
        String bucket = bucket(denied.getFile(), fileSystem);
        return new StoreAccessDeniedException("access denied to bucket " + bucket
            + " with the credentials of " + providers(conf, bucket) + ": check the access"
            + " key and secret (fs.s3a.access.key, fs.s3a.secret.key, or the provider's own"
            + " source) and the bucket's policy (" + reason(denied) + ")", error);
      }
    }
    return null;
  }

  private static boolean isS3a(String file, String fileSystem) {
    return (file != null && file.startsWith("s3a://"))
        || (fileSystem != null && fileSystem.startsWith("s3a://"));
  }

  /** The bucket of an s3a:// path in {@code text}, else of {@code fileSystem}. */
  private static String bucket(String text, String fileSystem) {
    for (String candidate : new String[] {text, fileSystem}) {
      int at = candidate == null ? -1 : candidate.indexOf("s3a://");
      if (at >= 0) {
        String rest = candidate.substring(at);
        int end = 6;
        while (end < rest.length() && rest.charAt(end) != '/' && rest.charAt(end) != ':'
            && !Character.isWhitespace(rest.charAt(end))) {
          end++;
        }
        String host = URI.create(rest.substring(0, end)).getHost();
        if (host != null) {
          return host;
        }
      }
    }
    return "(unknown)";
  }

  /** The credentials providers S3A uses for {@code bucket}, by their simple names. */
  static String providers(Configuration conf, String bucket) {
    String value = conf.getTrimmed("fs.s3a.bucket." + bucket + ".aws.credentials.provider",
        conf.getTrimmed("fs.s3a.aws.credentials.provider", ""));
    if (value.isEmpty()) {
      return DEFAULT_PROVIDERS;
    }
    return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty())
        .map(name -> name.substring(name.lastIndexOf('.') + 1))
        .collect(Collectors.joining(", "));
  }

  /** What the store or the provider said, without the SDK's request ids. */
  private static String reason(AccessDeniedException denied) {
    String reason = denied.getReason();
    String text = reason != null ? reason : String.valueOf(denied.getMessage());
    int newline = text.indexOf('\n');
    text = (newline < 0 ? text : text.substring(0, newline)).strip();
    int requestId = text.indexOf("(Service: ");
    return (requestId > 0 ? text.substring(0, requestId) : text).strip();
  }
}
