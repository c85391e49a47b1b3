package org.hpf.internal.write;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.hpf.MemberAccess;

/**
 * Writes archives that hpf itself would refuse to write (names that escape a directory, for
 * example), standing in for an archive made by a hostile or broken tool. It lives in the
 * writer's package to reach past the public methods' name checks.
 */
public final class ForgedArchive {
  private ForgedArchive() {}

  public static void create(Path archive, Map<String, byte[]> members, long mtimeMillis)
      throws IOException {
    WriterOptions options = WriterOptions.builder().settings(s -> s.threads(1)).build();
    MemberAccess access = MemberAccess.defaultFor(new Configuration());
    try (ArchiveWriter writer = ArchiveWriter.create(new Configuration(), archive, options)) {
      for (Map.Entry<String, byte[]> member : members.entrySet()) {
        byte[] bytes = member.getValue();
        writer.addition().add(new EntryEncoder.Member(member.getKey(), bytes.length,
            mtimeMillis, new ByteArrayInputStream(bytes), false, member.getKey(), access), null);
      }
      writer.commit();
    }
  }
}
