package org.hpf.bench.s3;

import org.hpf.bench.s3.RequestKind.PriceTier;

/**
 * What S3 charges for requests, in US dollars per 1,000 requests of each tier; storage and
 * transfer are not counted.
 *
 * @param writePer1000 PUT, COPY, POST and LIST requests
 * @param readPer1000 GET, HEAD and the other requests that are not free
 * @param source where the prices come from, as the report states them
 */
public record RequestPrices(double writePer1000, double readPer1000, String source) {
  /**
   * S3 Standard in us-east-1 as it has long been priced: $0.005 per 1,000 PUT, COPY, POST and
   * LIST requests, $0.0004 per 1,000 GET and other requests; DELETE and CANCEL free.
   */
  public static final RequestPrices S3_STANDARD = new RequestPrices(0.005, 0.0004,
      "assumed: S3 Standard in us-east-1, its long-standing request prices ($0.005 per 1,000"
          + " PUT, COPY, POST and LIST requests; $0.0004 per 1,000 GET, HEAD and other requests;"
          + " DELETE and CANCEL requests free); storage and data transfer not counted");

  /** The price of {@code requests}, in dollars. */
  public double dollars(RequestCounts requests) {
    return (requests.inTier(PriceTier.WRITE) * writePer1000
        + requests.inTier(PriceTier.READ) * readPer1000) / 1000;
  }
}
