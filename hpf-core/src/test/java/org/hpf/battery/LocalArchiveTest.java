package org.hpf.battery;

/** The battery on the local file system: archives and sources under a JUnit temporary folder. */
class LocalArchiveTest extends ArchiveBattery {
  LocalArchiveTest() {
    super(local());
  }
}
