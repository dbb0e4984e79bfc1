package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The drive's answers as Java's own exception types where one fits, each still carrying the
 * drive's status, with the message as Errors writes it.
 */
class ExceptionTypesTest {
    @ParameterizedTest(name = "errno {0}, reason {1}")
    @CsvSource({"2, 13", "2, 0", "17, 14", "17, 0", "39, 17", "39, 0", "20, 15", "20, 0",
        "28, 19", "28, 20"})
    void javaTypesCarryTheDrivesStatus(int errno, int reason) {
        IOException e = Errors.translate(-errno, reason, "emu:/d.img: op /a/b");
        Class<?> javaType = switch (errno) {
            case Errno.ENOENT -> FileNotFoundException.class;
            case Errno.EEXIST -> FileAlreadyExistsException.class;
            case Errno.ENOTEMPTY -> java.nio.file.DirectoryNotEmptyException.class;
            case Errno.ENOTDIR -> NotDirectoryException.class;
            default -> DriveFullException.class;   // the no-space IOException
        };
        assertThat(e).isInstanceOf(javaType).isInstanceOf(SmartSsdError.class);
        SmartSsdError se = (SmartSsdError) e;
        assertThat(se.status()).isEqualTo(new DriveStatus(errno, reason));
        assertThat(se.errno()).isEqualTo(errno);
        assertThat(se.reasonCode()).isEqualTo(reason);
        assertThat(se.reason()).isEqualTo(reason == 0 ? Reason.OK : Reason.of(reason));
        assertThat(e.getMessage()).startsWith("emu:/d.img: op /a/b: ");
        IOException again = Errors.translate(-errno, reason, "emu:/d.img: op /a/b");
        assertThat(e.getMessage()).isEqualTo(again.getMessage());
    }
}
