package org.smartssd.fs.sscache;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/** The FileContext binding of {@code sscache://} ({@code fs.AbstractFileSystem.sscache.impl}). */
public class SsCache extends DelegateToFileSystem {
    public SsCache(URI uri, Configuration conf) throws IOException, URISyntaxException {
        super(uri, new SsCacheFileSystem(), conf, SsCacheConstants.SCHEME, false);
    }
}
