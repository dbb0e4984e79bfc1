package org.smartssd.fs.sscache.hdfs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.sscache.SsCacheConstants;

/**
 * sscache:// over HDFS ({@code contract/sscache-hdfs.xml}): one MiniDFSCluster (one
 * DataNode) per test JVM, started on first use and stopped at exit, cached by the embedded
 * emulated drive "sshdfs".
 */
public class SsCacheHdfsContract extends AbstractFSContract {
    public static final String CONTRACT_XML = "contract/sscache-hdfs.xml";
    public static final String DRIVE = "sshdfs";
    private static MiniDFSCluster cluster;

    public SsCacheHdfsContract(Configuration conf) {
        super(conf);
        conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        conf.set(SsCacheConstants.CACHE_PREFIX + DRIVE + SsCacheConstants.BACKING_SUFFIX,
                cluster().getURI() + "/sscache-root");
        addConfResource(CONTRACT_XML);
    }

    static synchronized MiniDFSCluster cluster() {
        if (cluster == null) {
            try {
                Configuration c = new HdfsConfiguration();
                File base = new File(System.getProperty("test.build.data", "target/test-data"),
                        "minidfs-sscache-" + ProcessHandle.current().pid());
                c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
                // the suites write with 1 KiB blocks, as Hadoop's own HDFS contract allows
                c.setLong("dfs.namenode.fs-limits.min-block-size", 0);
                cluster = new MiniDFSCluster.Builder(c).numDataNodes(1).build();
                cluster.waitClusterUp();
                MiniDFSCluster started = cluster;
                Runtime.getRuntime().addShutdownHook(new Thread(started::shutdown,
                        "minidfs-sscache-shutdown"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cluster;
    }

    @Override
    public FileSystem getTestFileSystem() throws IOException {
        return FileSystem.get(URI.create(SsCacheConstants.SCHEME + "://" + DRIVE + "/"), getConf());
    }

    @Override
    public String getScheme() {
        return SsCacheConstants.SCHEME;
    }

    @Override
    public Path getTestPath() {
        return new Path("/test");
    }
}
