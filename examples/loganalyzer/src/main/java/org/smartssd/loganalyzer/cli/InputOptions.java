package org.smartssd.loganalyzer.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.smartssd.loganalyzer.TraceReader;
import org.smartssd.loganalyzer.WorldCupRecord;
import picocli.CommandLine.Option;

/** The local trace to load onto the drive. */
final class InputOptions {
    @Option(names = {"-i", "--input"}, required = true, paramLabel = "FILE",
            description = "a WorldCup98 trace file, raw or gzip (e.g. wc_day6_1.gz)")
    Path input;

    @Option(names = "--input-entry-size", defaultValue = "20", paramLabel = "BYTES",
            description = "bytes per entry in FILE: 20 for the real trace (default), or the "
                    + "--entry-size given to gen")
    int inputEntrySize;

    /** Entries in the input (reads it once; gzip is decompressed). */
    long countEntries() throws IOException {
        if (!Files.exists(input)) {
            throw new NoSuchFileException(input.toString());
        }
        TraceReader.checkEntrySize(inputEntrySize);
        if (!TraceReader.isGzip(input)) {
            long size = Files.size(input);
            if (size % inputEntrySize != 0) {
                throw new IOException(input + ": " + size + " bytes are not whole "
                        + inputEntrySize + "-byte entries (truncated file, or the wrong "
                        + "--input-entry-size)");
            }
            return size / inputEntrySize;
        }
        byte[] e = new byte[Math.max(inputEntrySize, WorldCupRecord.BYTES)];
        try (TraceReader r = TraceReader.open(input, inputEntrySize)) {
            while (r.next(e)) {
                // counting only
            }
            return r.entries();
        }
    }
}
