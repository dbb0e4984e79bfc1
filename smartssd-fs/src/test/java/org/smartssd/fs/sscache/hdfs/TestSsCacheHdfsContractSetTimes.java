package org.smartssd.fs.sscache.hdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSetTimesTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheHdfsContractSetTimes extends AbstractContractSetTimesTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheHdfsContract(conf);
    }
}
