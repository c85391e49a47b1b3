package org.hpf.fs.contract;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.hpf.Compression;
import org.hpf.fs.HpfFileSystem;
import org.hpf.internal.write.ArchiveCreator;
import org.hpf.internal.write.WriterOptions;

/**
 * The contract of {@code hpf://} for Hadoop's FileSystem contract tests ({@code
 * contract/hpf.xml}). Each test gets a new, empty archive on the local file system, mounted as
 * the root of a ViewFs mount table ({@code linkMergeSlash}), so that the contract's "/" is the
 * archive's root: {@code hpf://viewfs-<table>/test/x} is member {@code test/x}. Writes go through
 * {@link ArchivingHpfFileSystem}.
 */
public class HpfContract extends AbstractFSContract {
  private final String table = "hpfcontract" + UUID.randomUUID().toString().substring(0, 8);
  private FileSystem fs;

  private final Compression compression;

  /** Files stored raw and read in place (every raw member streams from its part). */
  public HpfContract(Configuration conf) {
    this(conf, Compression.NONE);
  }

  /**
   * @param compression {@link Compression#LZ4}: files stored compressed, so reads are served
   *     from the decompressed bytes; {@link Compression#NONE}: stored raw and read in place
   */
  public HpfContract(Configuration conf, Compression compression) {
    super(conf);
    this.compression = compression;
    addConfResource("contract/hpf.xml");
  }

  @Override
  public void init() throws IOException {
    super.init();
    Configuration conf = getConf();
    File base = new File(System.getProperty("test.build.data", "target/test-data"),
        "hpf-contract");
    File archive = new File(base, table + ".hpf").getAbsoluteFile();
    // Plain local files underneath: hpf checksums every file itself.
    conf.setClass("fs.file.impl", RawLocalFileSystem.class, FileSystem.class);
    conf.setBoolean("fs.file.impl.disable.cache", true);
    conf.set("fs.viewfs.mounttable." + table + ".linkMergeSlash", archive.toURI().toString());
    ArchivingHpfFileSystem.register(conf);
    conf.setEnum(ArchivingHpfFileSystem.COMPRESSION_KEY, compression);
    conf.setLong(HpfFileSystem.IN_MEMORY_KEY, 0);
    // Directories found by reading the names (HpfFileSystemTest covers the directory set).
    conf.setInt(HpfFileSystem.DIRECTORY_SET_KEY, 0);
    ArchiveCreator.create(conf, new Path(archive.toURI()), List.of(),
        WriterOptions.builder().settings(s -> s.threads(1)).build());
    fs = FileSystem.get(URI.create("hpf://viewfs-" + table + "/"), conf);
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public String getScheme() {
    return "hpf";
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }

  @Override
  public void teardown() throws IOException {
    if (fs != null) {
      fs.close();
    }
    super.teardown();
  }
}
