package org.hpf.bench.s3;

/**
 * The kinds of S3 request that S3A counts in a file system's IOStatistics, each under the one
 * counter that counts its requests once, and the price tier S3 bills it in. Several S3A
 * counters count the same request (a HEAD is both {@code action_http_head_request} and {@code
 * object_metadata_request}): only these are added up.
 */
public enum RequestKind {
  /** PutObject, and each UploadPart of a multipart upload. */
  PUT("object_put_request", PriceTier.WRITE),
  /** CreateMultipartUpload (a POST). */
  INITIATE_UPLOAD("object_multipart_initiated", PriceTier.WRITE),
  /** CompleteMultipartUpload (a POST). */
  COMPLETE_UPLOAD("multipart_upload_completed", PriceTier.WRITE),
  /** CopyObject. */
  COPY("object_copy_requests", PriceTier.WRITE),
  /** ListObjectsV2, the first page. */
  LIST("object_list_request", PriceTier.WRITE),
  /** ListObjectsV2, every page after the first. */
  LIST_NEXT_PAGE("object_continue_list_request", PriceTier.WRITE),
  /** ListMultipartUploads. */
  LIST_UPLOADS("object_multipart_list", PriceTier.WRITE),
  /** DeleteObjects (a POST naming many keys). */
  BULK_DELETE("object_bulk_delete_request", PriceTier.WRITE),
  /** GetObject, whole or a range. */
  GET("action_http_get_request", PriceTier.READ),
  /** HeadObject. */
  HEAD("action_http_head_request", PriceTier.READ),
  /** DeleteObject. */
  DELETE("object_delete_request", PriceTier.FREE),
  /** AbortMultipartUpload. */
  ABORT_UPLOAD("object_multipart_aborted", PriceTier.FREE);

  /** How S3 bills a request. */
  public enum PriceTier {
    /** PUT, COPY, POST and LIST requests. */
    WRITE,
    /** GET, HEAD and the other requests that are not free. */
    READ,
    /** DELETE and CANCEL requests. */
    FREE
  }

  /**
   * S3A's count of every request it sent through its audit span, whatever its kind: what the
   * kinds above must add up to.
   */
  public static final String ALL_REQUESTS_COUNTER = "audit_request_execution";

  private final String counter;
  private final PriceTier tier;

  RequestKind(String counter, PriceTier tier) {
    this.counter = counter;
    this.tier = tier;
  }

  /** The S3A IOStatistics counter of this kind. */
  public String counter() {
    return counter;
  }

  public PriceTier tier() {
    return tier;
  }
}
