package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The protocol's limits the client checks before it sends a command, against the values
 * protocol/include/ss_proto.h defines (the drive and libsmartssd compile from that header):
 * a Java copy that drifted would send what the drive refuses, or refuse what it takes.
 */
class ProtocolLimitsTest {
    private static long header(String name) throws IOException {
        Path h = Path.of(System.getProperty("user.dir")).resolve(
                "../../protocol/include/ss_proto.h").normalize();
        Matcher m = Pattern.compile("#define " + name + " \\(?(\\d+)u?(?: << (\\d+))?\\)?")
                .matcher(Files.readString(h));
        assertThat(m.find()).as(name + " in " + h).isTrue();
        long v = Long.parseLong(m.group(1));
        return m.group(2) == null ? v : v << Integer.parseInt(m.group(2));
    }

    @Test
    void theClientsLimitsAreTheHeaders() throws IOException {
        assertThat(InputRange.MAX_PER_RUN).isEqualTo(header("SS_EXECUTE_MAX_INPUTS"));
        assertThat(SolidStateCache.SCAN_MAX_RANGES).isEqualTo(header("SS_SSC_SCAN_MAX_RANGES"));
        assertThat(SolidStateCache.SCAN_MAX_RUNS).isEqualTo(header("SS_SSC_SCAN_MAX_RUNS"));
    }
}
