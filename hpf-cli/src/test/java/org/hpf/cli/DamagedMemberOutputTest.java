package org.hpf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    for (String[] args : new String[][] {{"cat", archive.toString(), "big.bin"},
        {"get", archive.toString(), "big.bin", "-o", "-"}}) {
      Cli.Result r = Cli.run(args);
      assertEquals(ExitCodes.CORRUPT, r.code(), r::toString);
      assertEquals(0, r.stdout().length, args[0] + " wrote bytes before the error");
      assertTrue(r.stderr().contains("big.bin"), r.stderr());
    }
  }
}
