package org.hpf.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Which settings leave S3A's upload buffers in its default place, for hpf to move. */
class UploadBuffersTest {
  @Test
  void onlyS3asOwnDefaultDirectoryOnDiskIsMoved() throws IOException {
    assertThat(UploadBuffers.defaultDiskBuffers(new Configuration(), "b")).isTrue();
    assertThat(UploadBuffers.defaultDiskBuffers(new Configuration(false), "b")).isTrue();
    // A job's tasks read their settings back from its job.xml.
    assertThat(UploadBuffers.defaultDiskBuffers(writtenAndRead(new Configuration()), "b"))
        .isTrue();

    Configuration chosen = new Configuration();
    chosen.set(UploadBuffers.BUFFER_DIR, "/home/alice/s3a");
    assertThat(UploadBuffers.defaultDiskBuffers(chosen, "b")).isFalse();
    assertThat(UploadBuffers.defaultDiskBuffers(writtenAndRead(chosen), "b")).isFalse();
    Configuration bucket = new Configuration();
    bucket.set("fs.s3a.bucket.b.buffer.dir", "/home/alice/s3a");
    assertThat(UploadBuffers.defaultDiskBuffers(bucket, "b")).isFalse();
    assertThat(UploadBuffers.defaultDiskBuffers(bucket, "other")).isTrue();
    Configuration memory = new Configuration();
    memory.set(UploadBuffers.BUFFER, "array");
    assertThat(UploadBuffers.defaultDiskBuffers(memory, "b")).isFalse();
    Configuration bucketInMemory = new Configuration();
    bucketInMemory.set("fs.s3a.bucket.b.fast.upload.buffer", "bytebuffer");
    assertThat(UploadBuffers.defaultDiskBuffers(bucketInMemory, "b")).isFalse();
  }

  private static Configuration writtenAndRead(Configuration conf) throws IOException {
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    conf.writeXml(xml);
    Configuration read = new Configuration(false);
    read.addResource(new ByteArrayInputStream(xml.toByteArray()), "job.xml");
    return read;
  }
}
