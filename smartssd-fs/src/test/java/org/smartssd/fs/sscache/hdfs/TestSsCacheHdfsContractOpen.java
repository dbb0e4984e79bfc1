package org.smartssd.fs.sscache.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheHdfsContractOpen extends AbstractContractOpenTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheHdfsContract(conf);
    }
}
