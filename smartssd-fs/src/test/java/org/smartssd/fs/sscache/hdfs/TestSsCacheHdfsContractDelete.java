package org.smartssd.fs.sscache.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheHdfsContractDelete extends AbstractContractDeleteTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheHdfsContract(conf);
    }
}
