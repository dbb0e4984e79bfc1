package org.smartssd.fs.sscache.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Runs with heap and direct buffers (the suite is parameterized by buffer type). */
public class TestSsCacheContractVectoredRead extends AbstractContractVectoredReadTest {
    public TestSsCacheContractVectoredRead(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new SsCacheContract(conf);
    }
}
