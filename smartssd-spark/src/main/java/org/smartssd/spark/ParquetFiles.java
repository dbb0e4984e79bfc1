package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Whether a read's path holds Parquet: a file that starts and ends with the magic
 * {@code PAR1}, or a directory as Spark writes one (its data files; {@code _SUCCESS} and
 * other names starting with {@code _} or {@code .} left out) whose files all do. A
 * partitioned table (only {@code column=value} directories) is refused, naming them.
 */
final class ParquetFiles {
    private static final byte[] MAGIC = {'P', 'A', 'R', '1'};

    private ParquetFiles() {
    }

    /** The Parquet files of {@code path}; empty when it is not Parquet or does not exist. */
    static List<Path> of(String path, Configuration conf) throws IOException {
        Path p = new Path(path);
        FileSystem fs = p.getFileSystem(conf);
        FileStatus st;
        try {
            st = fs.getFileStatus(p);
        } catch (java.io.FileNotFoundException e) {
            return List.of();
        }
        List<FileStatus> files = new ArrayList<>();
        List<String> partitions = new ArrayList<>();
        if (st.isDirectory()) {
            for (FileStatus f : fs.listStatus(p)) {
                String n = f.getPath().getName();
                if (n.startsWith("_") || n.startsWith(".")) {
                    continue;
                }
                if (f.isFile()) {
                    files.add(f);
                } else if (n.indexOf('=') > 0) {
                    partitions.add(n);
                }
            }
            files.sort((a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
        } else {
            files.add(st);
        }
        if (files.isEmpty()) {
            if (!partitions.isEmpty()) {
                partitions.sort(null);
                // Spark's reader would find the files below and add the columns the
                // directories name: read as rows here, they would be silently missing
                throw new IOException(path + " is a partitioned table (" + String.join(", ",
                        partitions.subList(0, Math.min(3, partitions.size())))
                        + (partitions.size() > 3 ? ", ..." : "") + "), which the connector "
                        + "does not read: load one partition's directory (without its "
                        + "column), or read the table with spark.read.parquet");
            }
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        for (FileStatus f : files) {
            if (!magicAtBothEnds(fs, f)) {
                if (out.isEmpty() && f == files.get(0)) {
                    return List.of();
                }
                throw new IOException(path + " mixes Parquet and other files: " + f.getPath()
                        + " is not Parquet");
            }
            out.add(f.getPath());
        }
        return out;
    }

    private static boolean magicAtBothEnds(FileSystem fs, FileStatus f) throws IOException {
        if (f.getLen() < 12) {
            return false;
        }
        byte[] head = new byte[4];
        byte[] tail = new byte[4];
        try (FSDataInputStream in = fs.open(f.getPath())) {
            in.readFully(0, head);
            in.readFully(f.getLen() - 4, tail);
        }
        return Arrays.equals(head, MAGIC) && Arrays.equals(tail, MAGIC);
    }
}
