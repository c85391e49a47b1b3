package org.hpf.bench.s3;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.hpf.minicluster.S3Server;

/**
 * The requests the local S3-protocol server answered, from its access log, by {@link
 * RequestKind}: what an operation cost as the server saw it, beside what the S3A client
 * counted. A request's line is logged once its answer is sent, so each look first sends a HEAD
 * of a marker key of its own (through the server's own client, which no measured client counts)
 * and leaves the marker's lines out.
 */
final class ServerLog {
  private static final String MARKER = "hpf-bench-log-marker";

  private final S3Server server;

  ServerLog(S3Server server) {
    this.server = server;
  }

  /** How many requests the server has answered so far. */
  int mark() throws IOException {
    return answered().size();
  }

  /**
   * The requests answered since {@code mark}, by kind name (every {@link RequestKind}, 0 where
   * none), every line counted once.
   */
  Map<String, Long> since(int mark) throws IOException {
    List<String> answered = answered();
    Map<String, Long> byKind = new LinkedHashMap<>();
    for (RequestKind kind : RequestKind.values()) {
      byKind.put(kind.name(), 0L); // counted, if none of this kind
    }
    for (String line : answered.subList(mark, answered.size())) {
      byKind.merge(kindOf(line), 1L, Long::sum);
    }
    return byKind;
  }

  private List<String> answered() throws IOException {
    server.fileSystem().exists(new Path(server.bucketRoot(), MARKER));
    return server.requests().stream().filter(line -> !line.contains(MARKER)).toList();
  }

  /**
   * The kind of the request of an access log line ({@code METHOD /path?query status}), named
   * as S3A's counters are ({@link RequestKind}); the method for one of no known kind. A copy is
   * a PUT whose source is a header the log does not show: it counts as a PUT here.
   */
  static String kindOf(String line) {
    String[] fields = line.split(" ");
    String method = fields[0];
    String target = fields.length > 1 ? fields[1] : "";
    String query = target.contains("?") ? target.substring(target.indexOf('?') + 1) : "";
    RequestKind kind = switch (method) {
      case "HEAD" -> RequestKind.HEAD;
      case "PUT" -> RequestKind.PUT;
      case "GET" -> query.contains("list-type=")
          ? query.contains("continuation-token=") ? RequestKind.LIST_NEXT_PAGE : RequestKind.LIST
          : hasParameter(query, "uploads") ? RequestKind.LIST_UPLOADS : RequestKind.GET;
      case "POST" -> hasParameter(query, "uploads") ? RequestKind.INITIATE_UPLOAD
          : query.contains("uploadId=") ? RequestKind.COMPLETE_UPLOAD
          : hasParameter(query, "delete") ? RequestKind.BULK_DELETE : null;
      case "DELETE" -> query.contains("uploadId=") ? RequestKind.ABORT_UPLOAD
          : RequestKind.DELETE;
      default -> null;
    };
    return kind == null ? method : kind.name();
  }

  private static boolean hasParameter(String query, String name) {
    for (String parameter : query.split("&")) {
      if (parameter.equals(name) || parameter.startsWith(name + "=")) {
        return true;
      }
    }
    return false;
  }
}
