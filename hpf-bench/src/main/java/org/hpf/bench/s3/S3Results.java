package org.hpf.bench.s3;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hpf.bench.Results;

/** What {@code hpf-bench s3} measured, with its settings and environment: s3.json. */
public final class S3Results {
  /** The way of storing the files that every other way is compared with. */
  public static final String ARCHIVE = "hpf archive";

  public final Map<String, Object> config = new LinkedHashMap<>();
  public final Map<String, Object> environment = new LinkedHashMap<>();
  public final List<Operation> operations = new ArrayList<>();
  /** What each way of creating left in the bucket, by way. */
  public final Map<String, Stored> stored = new LinkedHashMap<>();
  public RequestPrices prices = RequestPrices.S3_STANDARD;

  /**
   * One operation done one way: the requests it sent over {@code items} files or gets, its
   * time, and each item's time where items are timed one by one.
   *
   * @param operation what was done ("create", "list every name", "cold get, classic stream")
   * @param way how the files are stored and reached ({@link #ARCHIVE}, "one object per file",
   *     ...)
   * @param how the calls made, as a user of the API would recognize them
   */
  public record Operation(String operation, String way, String how, int items,
      RequestCounts requests, double millis, List<Double> itemMicros) {
    /** Requests per file or get. */
    public double perItem() {
      return (double) requests.total() / items;
    }

    /** One line for the run's log. */
    public String summary() {
      return String.format(Locale.ROOT, "%s, %s: %,d in %.2f s; %s", operation, way, items,
          millis / 1e3, requests.describe());
    }
  }

  public Operation find(String operation, String way) {
    return operations.stream().filter(o -> o.operation().equals(operation)
        && o.way().equals(way)).findFirst().orElse(null);
  }

  public static S3Results read(File file) throws IOException {
    return Results.mapper().readValue(file, S3Results.class);
  }

  public void write(File file) throws IOException {
    Results.writeJson(this, file);
  }
}
