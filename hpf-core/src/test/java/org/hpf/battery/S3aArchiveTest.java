package org.hpf.battery;

import org.junit.jupiter.api.Tag;

/**
 * The battery on s3a://, against the shared S3-protocol server: archives there, committed by
 * conditional create, and read with Hadoop's default S3A input stream (the Analytics
 * Accelerator's); sources local, on the server in {@code
 * roundTripWithSourcesOnTheArchiveFileSystem}.
 */
@Tag("s3")
class S3aArchiveTest extends ArchiveBattery {
  S3aArchiveTest() {
    super(s3("battery", "analytics"));
  }
}
