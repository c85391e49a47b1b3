package org.hpf.testing;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.PrivilegedExceptionAction;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosName;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.kerby.kerberos.kerb.client.KrbClient;

/**
 * A KDC and a Kerberized MiniDFSCluster (one DataNode, loopback, ephemeral ports, everything under
 * target/): Kerberos authentication, block access tokens, SASL-protected data transfer (which
 * needs HTTPS on the DataNodes, with test key stores) and permission checks. The NameNode and
 * DataNode run as {@code hdfs/localhost}; the end user {@link #USER} has a keytab and owns
 * {@link #home()}. One per test class: Kerberos settings are JVM-wide, so {@link #close()}
 * restores them.
 */
public final class SecureMiniDfs implements AutoCloseable {
  /** The end user: principal {@code alice@REALM}, short name {@code alice}. */
  public static final String USER = "alice";

  private final File base;
  private final MiniKdc kdc;
  private final String sslConfDir;
  private final MiniDFSCluster cluster;
  private final Configuration clientConf;

  private SecureMiniDfs(File base, MiniKdc kdc, String sslConfDir, MiniDFSCluster cluster,
      Configuration clientConf) {
    this.base = base;
    this.kdc = kdc;
    this.sslConfDir = sslConfDir;
    this.cluster = cluster;
    this.clientConf = clientConf;
  }

  /**
   * Starts the KDC and the cluster. {@code testClass} names the folder under target/ and places
   * the SSL client and server settings on its class path (as Hadoop's own tests do).
   */
  public static SecureMiniDfs start(Class<?> testClass) throws Exception {
    File base = new File(System.getProperty("test.build.data", "target/test-data"),
        "kerberos-" + UUID.randomUUID()).getAbsoluteFile();
    if (!base.mkdirs()) {
      throw new IOException("cannot create " + base);
    }
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), base);
    kdc.start();
    String sslConfDir = null;
    MiniDFSCluster cluster = null;
    try {
      // The realm is read once per JVM; MiniKdc's krb5.conf names a new one.
      KerberosName.resetDefaultRealm();
      String realm = kdc.getRealm();
      File hdfsKeytab = new File(base, "hdfs.keytab");
      kdc.createPrincipal(hdfsKeytab, "hdfs/localhost", "HTTP/localhost");
      kdc.createPrincipal(new File(base, USER + ".keytab"), USER);

      Configuration conf = MiniDfs.testConfiguration();
      conf.set(CommonConfigurationKeys.HADOOP_SECURITY_AUTHENTICATION, "kerberos");
      conf.setBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, true);
      for (String server : new String[] {"namenode", "datanode"}) {
        conf.set("dfs." + server + ".kerberos.principal", "hdfs/localhost@" + realm);
        conf.set("dfs." + server + ".keytab.file", hdfsKeytab.getPath());
      }
      conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
      conf.setBoolean("dfs.block.access.token.enable", true);
      conf.set("dfs.data.transfer.protection", "authentication");
      conf.setBoolean("dfs.permissions.enabled", true);
      conf.set("dfs.http.policy", "HTTPS_ONLY");
      conf.set("dfs.namenode.https-address", "localhost:0");
      conf.set("dfs.datanode.https.address", "localhost:0");
      conf.setInt("dfs.replication", 1);
      sslConfDir = KeyStoreTestUtil.getClasspathDir(testClass);
      KeyStoreTestUtil.setupSSLConfig(base.getPath(), sslConfDir, conf, false);
      conf.set("dfs.client.https.keystore.resource",
          KeyStoreTestUtil.getClientSSLConfigFileName());
      conf.set("dfs.server.https.keystore.resource",
          KeyStoreTestUtil.getServerSSLConfigFileName());
      UserGroupInformation.setConfiguration(conf);

      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(base, "dfs").getPath());
      cluster = new MiniDFSCluster.Builder(conf, new File(base, "dfs")).numDataNodes(1).build();
      cluster.waitActive();

      Configuration clientConf = new Configuration(cluster.getConfiguration(0));
      clientConf.set(FileSystem.FS_DEFAULT_NAME_KEY, cluster.getURI().toString());
      SecureMiniDfs dfs = new SecureMiniDfs(base, kdc, sslConfDir, cluster, clientConf);
      dfs.asSuperuser(fs -> {
        fs.mkdirs(dfs.home());
        fs.setOwner(dfs.home(), USER, USER);
        return null;
      });
      return dfs;
    } catch (Exception | Error e) {
      if (cluster != null) {
        cluster.shutdown(true);
      }
      stopKdc(kdc, base, sslConfDir);
      throw e;
    }
  }

  /** Work with the cluster's file system as the HDFS superuser, logged in from its keytab. */
  public <T> T asSuperuser(SuperuserAction<T> action) throws Exception {
    UserGroupInformation hdfs = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        hdfsPrincipal(), new File(base, "hdfs.keytab").getPath());
    return hdfs.doAs((PrivilegedExceptionAction<T>) () -> {
      try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(
          cluster.getURI(), clientConf)) {
        return action.run(fs);
      }
    });
  }

  /** What {@link #asSuperuser} runs. */
  public interface SuperuserAction<T> {
    T run(DistributedFileSystem fs) throws Exception;
  }

  /** The end user logged in from its keytab. */
  public UserGroupInformation loginUser() throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(userPrincipal(),
        userKeytab().getPath());
  }

  /**
   * What {@code kinit} does for the end user: gets a ticket from the KDC with the user's keytab
   * and stores it in a new ticket cache, {@code cache}.
   */
  public void kinit(File cache) throws Exception {
    KrbClient client = new KrbClient(kdc.getKrb5conf().getParentFile());
    client.init();
    client.storeTicket(client.requestTgt(userPrincipal(), userKeytab()), cache);
  }

  /** Writes {@link #clientConfiguration()} as a site file, as a cluster's clients get it. */
  public File writeClientSite(File file) throws IOException {
    try (OutputStream out = new FileOutputStream(file)) {
      clientConf.writeXml(out);
    }
    return file;
  }

  public String userPrincipal() {
    return USER + "@" + kdc.getRealm();
  }

  public File userKeytab() {
    return new File(base, USER + ".keytab");
  }

  public String hdfsPrincipal() {
    return "hdfs/localhost@" + kdc.getRealm();
  }

  /** The end user's home directory, {@code /user/alice}, which it owns. */
  public Path home() {
    return new Path(cluster.getURI().toString() + "/user/" + USER);
  }

  public MiniKdc kdc() {
    return kdc;
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /**
   * The settings a client needs: Kerberos, the servers' principals, SASL data transfer; the
   * default file system is this cluster.
   */
  public Configuration clientConfiguration() {
    return new Configuration(clientConf);
  }

  @Override
  public void close() {
    try {
      cluster.shutdown(true);
    } finally {
      stopKdc(kdc, base, sslConfDir);
    }
  }

  private static void stopKdc(MiniKdc kdc, File base, String sslConfDir) {
    try {
      kdc.stop();
      if (sslConfDir != null) {
        KeyStoreTestUtil.cleanupSSLConfig(base.getPath(), sslConfDir);
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot clean up the KDC's SSL settings", e);
    } finally {
      // The next test class in this JVM starts from the default, insecure, settings.
      UserGroupInformation.reset();
      KerberosName.resetDefaultRealm();
      FileUtil.fullyDelete(base);
    }
  }
}
