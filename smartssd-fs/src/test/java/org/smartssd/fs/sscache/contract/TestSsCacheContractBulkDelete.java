package org.smartssd.fs.sscache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractBulkDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSsCacheContractBulkDelete extends AbstractContractBulkDeleteTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheContract(conf);
    }
}
