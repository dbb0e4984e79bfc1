package org.smartssd.spark;

import java.lang.management.ManagementFactory;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The log analyzer's Q1 on a Spark {@code local-cluster}: a driver and executors, each its
 * own JVM, all reaching the drive through smartssd-devd. Run by {@link SmartSsdDevdTest} as a
 * child process: {@code LocalClusterQ1 DEVD_URI PATH}. Prints the executors' process ids
 * ({@code PIDS}), the plan ({@code PLAN}) and one {@code ROW region count} per region.
 */
public final class LocalClusterQ1 {
    private LocalClusterQ1() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local-cluster[2,1,1024]")
                .appName("smartssd-local-cluster-q1")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.hadoop.smartssd.device.d1.uri", args[0])
                .getOrCreate();
        try {
            Dataset<Long> pids = spark.range(0, 8, 1, 8).mapPartitions(
                    (MapPartitionsFunction<Long, Long>) (Iterator<Long> it) -> List.of(
                            ManagementFactory.getRuntimeMXBean().getPid()).iterator(),
                    Encoders.LONG());
            System.out.println("DRIVER " + ManagementFactory.getRuntimeMXBean().getPid());
            System.out.println("PIDS " + new TreeSet<>(pids.collectAsList()));
            Dataset<Row> q1 = spark.read().format("smartssd").option("layout", "wc98")
                    .option("mapreduce.input.fileinputformat.split.maxsize", "262144")
                    .load(args[1]).groupBy("region").count();
            System.out.println("PLAN " + q1.queryExecution().executedPlan().toString()
                    .replace('\n', ' '));
            for (Row r : q1.collectAsList()) {
                System.out.println("ROW " + r.get(0) + " " + r.get(1));
            }
        } finally {
            spark.stop();
        }
    }
}
