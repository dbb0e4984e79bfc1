package org.smartssd.fs.sscache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheContractContentSummary extends AbstractContractContentSummaryTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheContract(conf);
    }
}
