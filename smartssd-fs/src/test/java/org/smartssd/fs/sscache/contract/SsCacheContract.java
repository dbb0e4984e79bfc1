package org.smartssd.fs.sscache.contract;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.sscache.SsCacheConstants;

/**
 * sscache:// over file:// ({@code contract/sscache-file.xml}): the embedded emulated drive
 * "sscontract" caches a temp folder of this JVM, so the suites need no hardware.
 */
public class SsCacheContract extends AbstractFSContract {
    public static final String CONTRACT_XML = "contract/sscache-file.xml";
    public static final String DRIVE = "sscontract";
    private static Path backingRoot;

    public SsCacheContract(Configuration conf) {
        super(conf);
        conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        conf.set(SsCacheConstants.CACHE_PREFIX + DRIVE + SsCacheConstants.BACKING_SUFFIX,
                backingRoot().toUri().toString());
        addConfResource(CONTRACT_XML);
    }

    static synchronized Path backingRoot() {
        if (backingRoot == null) {
            try {
                backingRoot = Files.createTempDirectory("sscache-contract-");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return backingRoot;
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
    public org.apache.hadoop.fs.Path getTestPath() {
        return new org.apache.hadoop.fs.Path("/test");
    }
}
