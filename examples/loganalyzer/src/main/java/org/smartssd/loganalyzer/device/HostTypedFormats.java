package org.smartssd.loganalyzer.device;

import java.io.IOException;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.loganalyzer.FileType;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.host.TypeCountWritable;
import org.smartssd.mapreduce.DeviceMapperFormat;
import org.smartssd.mapreduce.DeviceOutput;

/**
 * The group-aggregate tasklet's counts as the host versions' map outputs, so a placed job
 * ({@link PlacedQueryJob}) feeds the drive's splits and the host's splits to one reduce, the
 * host versions' ({@code SumReducer}, {@code TopTypesReducer}): Q1 as (region, count), Q2 as
 * (region, (type, count)). Partial groups spilled by the drive are summed there exactly.
 */
public final class HostTypedFormats {
    private HostTypedFormats() {
    }

    /** Q1: (region) groups to (IntWritable region, LongWritable count). */
    public static final class Q1 extends DeviceMapperFormat<IntWritable, LongWritable> {
        @Override
        public Class<IntWritable> keyClass() {
            return IntWritable.class;
        }

        @Override
        public Class<LongWritable> valueClass() {
            return LongWritable.class;
        }

        @Override
        public void convert(DeviceOutput output, Emitter<IntWritable, LongWritable> out)
                throws IOException, InterruptedException {
            for (GroupAggregate.Item item : GroupAggregate.decode(output.bytes()).items()) {
                out.emit(new IntWritable(region(item, output)), new LongWritable(item.count()));
            }
        }
    }

    /** Q2: (region, type) groups to (IntWritable region, TypeCountWritable (type, count)). */
    public static final class Q2 extends DeviceMapperFormat<IntWritable, TypeCountWritable> {
        @Override
        public Class<IntWritable> keyClass() {
            return IntWritable.class;
        }

        @Override
        public Class<TypeCountWritable> valueClass() {
            return TypeCountWritable.class;
        }

        @Override
        public void convert(DeviceOutput output, Emitter<IntWritable, TypeCountWritable> out)
                throws IOException, InterruptedException {
            for (GroupAggregate.Item item : GroupAggregate.decode(output.bytes()).items()) {
                if (item.key2() < 0 || item.key2() >= FileType.CODES) {
                    throw new IOException(output.file() + ": the drive returned type "
                            + item.key2() + ", outside the type field");
                }
                out.emit(new IntWritable(region(item, output)),
                        new TypeCountWritable((int) item.key2(), item.count()));
            }
        }
    }

    private static int region(GroupAggregate.Item item, DeviceOutput output) throws IOException {
        if (item.key1() < 0 || item.key1() >= Region.CODES) {
            throw new IOException(output.file() + ": the drive returned region " + item.key1()
                    + ", outside the region field");
        }
        return (int) item.key1();
    }
}
