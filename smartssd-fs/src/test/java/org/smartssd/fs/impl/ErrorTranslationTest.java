package org.smartssd.fs.impl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.PathIsDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.util.DiskChecker;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.DirectoryNotEmptyException;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectExistsException;

/** Every drive exception the file system can meet, and what Hadoop users get instead. */
class ErrorTranslationTest {
    private static final StoreContext CTX = new StoreContext(URI.create("smartssd://dev0"),
            "dev0", "unix:/run/dev0.sock", "h", 1 << 20, "u", "g", new Configuration(),
            IOStatisticsBinding.iostatisticsStore().build(),
            new org.apache.hadoop.fs.FileSystem.Statistics("smartssd"));
    private static final String PATH = "smartssd://dev0/data/part-0";

    static java.util.stream.Stream<Arguments> cases() {
        return java.util.stream.Stream.of(
                Arguments.of(new NoSuchObjectException("d", 2, 13), FileNotFoundException.class),
                Arguments.of(new ObjectExistsException("d", 17, 14),
                        FileAlreadyExistsException.class),
                Arguments.of(new NotADirectoryException("d", 20, 15),
                        ParentNotDirectoryException.class),
                Arguments.of(new SmartSsdException("d", 21, 16),
                        PathIsDirectoryException.class),
                Arguments.of(new DirectoryNotEmptyException("d", 39, 17),
                        PathIsNotEmptyDirectoryException.class),
                Arguments.of(new DriveFullException("d", 28, 19),
                        DiskChecker.DiskOutOfSpaceException.class),
                Arguments.of(new DriveFullException("d", 28, 20),
                        DiskChecker.DiskOutOfSpaceException.class),
                Arguments.of(new SmartSsdException("d", 36, 18), PathIOException.class),
                Arguments.of(new SmartSsdException("d", 16, 33), PathIOException.class),
                Arguments.of(new SmartSsdException("d", 27, 6), PathIOException.class));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void driveErrorsBecomeHadoopOnesNamingThePath(IOException drive,
                                                  Class<? extends IOException> hadoop) {
        IOException e = ErrorTranslation.translate(CTX, "create", PATH, drive);
        assertThat(e).isInstanceOf(hadoop);
        assertThat(e.getMessage()).contains(PATH);
        assertThat(e.getCause()).isSameAs(drive);
    }

    @Test
    void fullDriveNamesTheDriveAndIsADiskOutOfSpaceException() {
        IOException e = ErrorTranslation.translate(CTX, "write", PATH,
                new DriveFullException("unix:/run/dev0.sock: write: the drive is full", 28, 19));
        assertThat(e).isInstanceOf(DiskChecker.DiskOutOfSpaceException.class)
                .hasMessageContaining("drive dev0 (unix:/run/dev0.sock)")
                .hasMessageStartingWith(PATH + ": drive dev0");
    }

    @Test
    void errorsWithoutAHadoopCounterpartPassThrough() {
        IOException busy = new SmartSsdException("busy", 11, 11);
        assertThat(ErrorTranslation.translate(CTX, "read", PATH, busy)).isSameAs(busy);
        IOException other = new SmartSsdException("bad field", 22, 6);
        assertThat(ErrorTranslation.translate(CTX, "read", PATH, other)).isSameAs(other);
    }
}
