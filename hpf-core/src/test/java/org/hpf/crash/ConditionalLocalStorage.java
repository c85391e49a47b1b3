package org.hpf.crash;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.hpf.internal.io.ArchiveOutput;
import org.hpf.internal.io.ArchiveStorage;
import org.hpf.internal.io.ForwardingStorage;
import org.hpf.internal.io.StorageProfile;

/**
 * An object store's commit rules on the local file system, so that the schedules of its
 * protocol can be swept at a local disk's speed (the S3 server runs a sample of them): every
 * file is uploaded to a hidden name and appears whole at close, under its name only where no
 * file has it (a hard link fails where the name exists, as S3's {@code If-None-Match} does);
 * syncs do nothing; there is no rename; uploads never completed are pending until aborted.
 */
final class ConditionalLocalStorage extends ForwardingStorage {
  private static final String UPLOAD = ".upload-";

  private final Path root;

  ConditionalLocalStorage(ArchiveStorage local, Path root) {
    super(local);
    this.root = root;
  }

  @Override
  public StorageProfile profile() {
    return StorageProfile.CONDITIONAL_CREATE;
  }

  @Override
  public ArchiveOutput create(String name, long blockSize) throws IOException {
    Path target = root.resolve(name);
    Files.createDirectories(target.getParent());
    Path upload = target.resolveSibling(UPLOAD + UUID.randomUUID());
    OutputStream out = Files.newOutputStream(upload);
    return new ArchiveOutput() {
      private boolean closed;

      @Override
      public OutputStream stream() {
        return out;
      }

      @Override
      public void flush() {}

      @Override
      public void sync() {}

      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        out.close();
        try {
          Files.createLink(target, upload);
        } catch (java.nio.file.FileAlreadyExistsException e) {
          throw new FileAlreadyExistsException(name + " exists");
        } catch (java.nio.file.NoSuchFileException e) {
          throw new IOException("the upload of " + name + " was aborted", e);
        } finally {
          Files.deleteIfExists(upload);
        }
      }
    };
  }

  @Override
  public ArchiveOutput createMergedPart(String name, long blockSize) throws IOException {
    return create(name, blockSize);
  }

  @Override
  public List<String> list(String dir) throws IOException {
    return super.list(dir).stream().filter(name -> !name.startsWith(UPLOAD)).toList();
  }

  @Override
  public void rename(String from, String to) throws IOException {
    throw new IOException("no atomic rename on an object store: will not rename " + from);
  }

  @Override
  public int abortPendingUploads() throws IOException {
    int aborted = 0;
    if (!Files.isDirectory(root)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith(UPLOAD))
          .toList()) {
        aborted += Files.deleteIfExists(file) ? 1 : 0;
      }
    }
    return aborted;
  }
}
