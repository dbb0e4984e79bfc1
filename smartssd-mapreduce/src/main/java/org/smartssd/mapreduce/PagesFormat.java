package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.io.LongWritable;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.Filter;

/**
 * Filter outputs in PAGES mode (Kang §6.5.3) as (object id, page offset) → LBA. Two splits
 * that share a page may both report it; reduce with {@link FirstValueReducer} for each page
 * once.
 */
public class PagesFormat extends DeviceMapperFormat<LongPairWritable, LongWritable> {
    @Override
    public Class<LongPairWritable> keyClass() {
        return LongPairWritable.class;
    }

    @Override
    public Class<LongWritable> valueClass() {
        return LongWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<LongPairWritable, LongWritable> out)
            throws IOException, InterruptedException {
        Formats.require(output, BuiltinTasklet.FILTER, getClass());
        Filter f = Filter.parse(output.spec().params());
        if (f.mode() != Filter.Mode.PAGES) {
            throw new IOException(getClass().getSimpleName() + " reads filters in PAGES mode, "
                    + "this one is in " + f.mode() + " mode");
        }
        for (Filter.PageItem p : f.decode(output.bytes(), output.layout()).pages()) {
            out.emit(new LongPairWritable(p.oid(), p.pageOffset()), new LongWritable(p.lba()));
        }
    }
}
