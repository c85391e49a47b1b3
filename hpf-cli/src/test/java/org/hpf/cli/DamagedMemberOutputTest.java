package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.hpf.internal.format.IndexRecord;
import org.hpf.internal.read.HpfReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged byte in the middle of a large member: {@code cat} and {@code get -o -} report the
 * damage before writing a byte of it, since standard output cannot be taken back.
 */
class DamagedMemberOutputTest {
  @TempDir Path dir;

  @Test
  void noDamagedByteReachesStandardOutput() throws Exception {
    Path archive = damagedArchive();
    for (String[] args : new String[][] {{"cat", archive.toString(), "big.bin"},
        {"get", archive.toString(), "big.bin", "-o", "-"}}) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.CORRUPT, r.code(), r::toString);
      assertEquals(0, r.stdout().length, args[0] + " wrote bytes before the error");
      assertTrue(r.stderr().contains("big.bin"), r.stderr());
    }
  }

  /**
   * One damage, one description, however the member is read: verify, cat, a stream of
   * {@code hpf://}: the part, the offset where the entry starts and the member's name.
   */
  @Test
  void oneDamageIsDescribedOneWay() throws Exception {
    Path archive = damagedArchive();
    Cli.Result cat = Cli.run("cat", archive.toString(), "big.bin");
    assertEquals(ExitCodes.CORRUPT, cat.code(), cat::toString);
    String damage = cat.stderr().strip().substring("hpf: ".length());
    assertTrue(damage.contains("of 'big.bin' bytes"), damage);

    Cli.Result verify = Cli.run("verify", archive.toString());
    assertEquals(ExitCodes.CORRUPT, verify.code(), verify::toString);
    assertTrue(verify.out().contains(damage), () -> damage + "\n" + verify);

    org.apache.hadoop.fs.Path member = new org.apache.hadoop.fs.Path("hpf://file-"
        + archive.toAbsolutePath() + "/big.bin");
    Configuration conf = new Configuration();
    IOException streamed = assertThrows(IOException.class, () -> {
      try (InputStream in = member.getFileSystem(conf).open(member)) {
        in.transferTo(OutputStream.nullOutputStream());
      }
    });
    assertTrue(streamed.getMessage().contains(damage), () -> damage + "\n" + streamed);
  }

  /** An archive whose raw 3 MiB member big.bin has a damaged byte near its end. */
  private Path damagedArchive() throws Exception {
    Path src = Files.createDirectories(dir.resolve("src"));
    byte[] big = new byte[3 << 20]; // raw (random bytes do not compress), streamed
    new Random(5).nextBytes(big);
    Files.write(src.resolve("big.bin"), big);
    Path archive = dir.resolve("a.hpf");
    assertEquals(0, Cli.run("create", "--quiet", src.toString(), archive.toString()).code());

    IndexRecord record;
    try (HpfReader reader = HpfReader.open(new Configuration(),
        new org.apache.hadoop.fs.Path(archive.toUri()))) {
      record = reader.record("big.bin");
    }
    Path part = archive.resolve(String.format("part-%06d", record.part()));
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      long at = record.offset() + record.entryLength() - 1000; // near the end
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x40);
    }
    return archive;
  }
}
