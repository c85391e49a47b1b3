package org.hpf.battery;

import org.junit.jupiter.api.Tag;

/**
 * The battery on s3a://, against the shared S3-protocol server: archives there, committed by
 * conditional create, and read with Hadoop's default S3A input stream (the Analytics
 * Accelerator's); sources local, on the server in {@code
 * roundTripWithSourcesOnTheArchiveFileSystem}.
 *
 * <p>Nightly ({@code -Plong-tests}): its 41 tests cost minutes of requests to the server, and
 * most of them check the index and format logic that {@link LocalArchiveTest} and {@link
 * HdfsArchiveTest} check already.
 */
@Tag("s3")
@Tag("nightly")
class S3aArchiveTest extends ArchiveBattery {
  S3aArchiveTest() {
    super(s3("battery", "analytics"));
  }
}
