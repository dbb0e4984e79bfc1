package org.smartssd.fs.contract;

import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.smartssd.fs.SmartSsdConstants;

/**
 * The smartssd:// contract: {@code contract/smartssd.xml}, on the embedded emulated drive
 * "contract" (formatted in a temp folder on first use), so the suites need no hardware.
 */
public class SmartSsdContract extends AbstractFSContract {
    public static final String CONTRACT_XML = "contract/smartssd.xml";
    public static final URI FS_URI = URI.create("smartssd://contract/");

    public SmartSsdContract(Configuration conf) {
        super(conf);
        conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        addConfResource(CONTRACT_XML);
    }

    @Override
    public FileSystem getTestFileSystem() throws IOException {
        return FileSystem.get(FS_URI, getConf());
    }

    @Override
    public String getScheme() {
        return SmartSsdConstants.SCHEME;
    }

    @Override
    public Path getTestPath() {
        return new Path("/test");
    }
}
