package org.hpf.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSInotifyEventInputStream;
import org.apache.hadoop.hdfs.client.HdfsAdmin;
import org.apache.hadoop.hdfs.inotify.Event;
import org.apache.hadoop.hdfs.inotify.EventBatch;
import org.apache.hadoop.hdfs.inotify.MissingEventsException;

/**
 * The modes a NameNode gave files and directories, read from its edit log through HDFS inotify:
 * each create with the permission it was created with, each later change of permission, each
 * rename (a path keeps the modes it had before). It watches work the test cannot wrap, such as
 * a MapReduce job's tasks, at the moment of each change, with no polling of the file system.
 * Needs the superuser.
 */
public final class EditLogModes {
  private final DFSInotifyEventInputStream events;

  private EditLogModes(DFSInotifyEventInputStream events) {
    this.events = events;
  }

  /** Watches from now on. */
  public static EditLogModes start(MiniDfs dfs) throws IOException {
    Configuration conf = dfs.configuration();
    return new EditLogModes(new HdfsAdmin(dfs.fileSystem().getUri(), conf)
        .getInotifyEventStream());
  }

  /**
   * Every mode each path below {@code root} (absolute, as the NameNode names it) had since
   * {@link #start}, in order; a path renamed into {@code root} brings the modes it had before.
   */
  public Map<String, List<Integer>> below(String root) throws IOException {
    Map<String, List<Integer>> all = new TreeMap<>();
    try {
      for (EventBatch batch = events.poll(); batch != null; batch = events.poll()) {
        for (Event event : batch.getEvents()) {
          record(all, event);
        }
      }
    } catch (MissingEventsException e) {
      throw new IOException("the edit log lost events", e);
    }
    Map<String, List<Integer>> inside = new TreeMap<>();
    all.forEach((path, modes) -> {
      if (path.equals(root) || path.startsWith(root + "/")) {
        inside.put(path, modes);
      }
    });
    return inside;
  }

  private static void record(Map<String, List<Integer>> all, Event event) {
    if (event instanceof Event.CreateEvent create) {
      all.computeIfAbsent(create.getPath(), p -> new ArrayList<>())
          .add((int) create.getPerms().toShort());
    } else if (event instanceof Event.MetadataUpdateEvent update
        && update.getMetadataType() == Event.MetadataUpdateEvent.MetadataType.PERMS) {
      all.computeIfAbsent(update.getPath(), p -> new ArrayList<>())
          .add((int) update.getPerms().toShort());
    } else if (event instanceof Event.RenameEvent rename) {
      String from = rename.getSrcPath();
      for (String path : new ArrayList<>(all.keySet())) {
        if (path.equals(from) || path.startsWith(from + "/")) {
          all.computeIfAbsent(rename.getDstPath() + path.substring(from.length()),
              p -> new ArrayList<>()).addAll(all.get(path));
        }
      }
    }
  }
}
