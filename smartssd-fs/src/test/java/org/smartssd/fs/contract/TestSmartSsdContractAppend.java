package org.smartssd.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestSmartSsdContractAppend extends AbstractContractAppendTest {
    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SmartSsdContract(conf);
    }
}
