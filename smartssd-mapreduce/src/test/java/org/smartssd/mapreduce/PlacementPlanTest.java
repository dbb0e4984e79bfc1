package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.scan.Placement;

/**
 * A device job's placement set wrong fails at submission, naming the key (the planner's own
 * tests: smartssd-scan's SplitPlannerTest).
 */
class PlacementPlanTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void hostPlacementWithoutAHostMapperFailsBeforeAnyTask() throws Exception {
        Configuration conf = Drives.local(dir);
        Path input = new Path("smartssd://placetest/data/requests.bin");
        Drives.write(conf, input, new Requests(2_000, 4, 7).bytes());
        DeviceJob job = DeviceJob.getInstance(conf, "no host mapper");
        job.setDeviceMapper(GroupAggregate.groupBy(Requests.REGION)
                .spec(Requests.LAYOUT, 64 * 1024, 0));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setPlacement(Placement.HOST);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out").toUri()));
        assertThatThrownBy(job::submit).hasMessageContaining(Placement.HOST_MAPPER_CLASS);
    }
}
