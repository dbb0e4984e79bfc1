package org.smartssd.fs.sscache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheContractGetFileStatus extends AbstractContractGetFileStatusTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheContract(conf);
    }
}
