package org.smartssd.fs.sscache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheContractOpen extends AbstractContractOpenTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheContract(conf);
    }
}
