package org.smartssd.fs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * The {@code FileContext} binding of {@code smartssd://} ({@code fs.AbstractFileSystem.smartssd.impl}):
 * {@link SmartSsdFileSystem} behind Hadoop's AbstractFileSystem interface.
 */
public class SmartSsd extends DelegateToFileSystem {
    public SmartSsd(URI theUri, Configuration conf) throws IOException, URISyntaxException {
        super(theUri, new SmartSsdFileSystem(), conf, SmartSsdConstants.SCHEME, false);
    }
}
