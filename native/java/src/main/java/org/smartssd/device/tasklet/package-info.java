/**
 * Pure host-side codecs of the drive's built-in tasklets, byte for byte as
 * {@code firmware-tasklets/include/smartssd/builtin_tasklets.h} defines them: encoders of
 * each tasklet's static parameters ({@link org.smartssd.device.tasklet.GroupAggregate},
 * {@link org.smartssd.device.tasklet.TopN}, {@link org.smartssd.device.tasklet.Filter} with
 * its {@link org.smartssd.device.tasklet.Predicate} tree, {@link org.smartssd.device.tasklet.Grep},
 * {@link org.smartssd.device.tasklet.DramProbe}), decoders of their outputs and the exact
 * mergers of partial results (spills, splits). No I/O: MapReduce, Spark and the log analyzer
 * reuse them.
 */
package org.smartssd.device.tasklet;
