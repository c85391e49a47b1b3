package org.hpf.battery;

import org.junit.jupiter.api.Tag;

/**
 * The mutation battery, with smaller archives, on s3a:// against the shared S3-protocol server:
 * every change commits by conditional create, with no rename and no journal. Read with S3A's
 * classic input stream, which opens a file at the length the archive records and asks the
 * store nothing before its first read: a file a newer generation removed is found missing by
 * that read.
 */
@Tag("s3")
class S3aMutationTest extends MutationBattery {
  S3aMutationTest() {
    super(s3("mutations", "classic"));
  }
}
