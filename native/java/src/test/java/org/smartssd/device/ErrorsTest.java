package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.smartssd.device.TaskletFailedException.Failure;

class ErrorsTest {
    /** The reason codes as ss_proto.h lists them (SS_PROTO_REASONS), read from the C header. */
    static Map<String, Integer> headerReasons() throws IOException {
        Path h = Path.of(System.getProperty("user.dir")).resolve(
                "../../protocol/include/ss_proto.h").normalize();
        String text = Files.readString(h);
        String body = text.substring(text.indexOf("#define SS_PROTO_REASONS(X)"));
        body = body.substring(0, body.indexOf("enum ss_reason {"));
        Map<String, Integer> m = new LinkedHashMap<>();
        Matcher x = Pattern.compile("X\\(([A-Z_]+), (\\d+), [A-Z0-9]+\\)").matcher(body);
        while (x.find()) {
            m.put(x.group(1), Integer.parseInt(x.group(2)));
        }
        return m;
    }

    @Test
    void reasonEnumMatchesTheProtocolHeaderExactly() throws IOException {
        Map<String, Integer> h = headerReasons();
        assertThat(h).hasSizeGreaterThan(30);
        Map<String, Integer> java = new LinkedHashMap<>();
        for (Reason r : Reason.values()) {
            java.put(r.name(), r.code());
        }
        assertThat(java).isEqualTo(h);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "BAD_MAGIC, SmartSsdException",
        "BAD_VERSION, SmartSsdException",
        "BAD_CRC, SmartSsdException",
        "BAD_LENGTH, SmartSsdException",
        "BAD_OPCODE, SmartSsdException",
        "BAD_FIELD, SmartSsdException",
        "TAG_MISMATCH, SmartSsdException",
        "TAG_IN_USE, SmartSsdException",
        "NO_REPLY, SmartSsdException",
        "REPLY_TOO_BIG, SmartSsdException",
        "BUSY, SmartSsdException",
        "BAD_PATH, SmartSsdException",
        "NO_SUCH_OBJECT, NoSuchObjectException",
        "EXISTS, ObjectExistsException",
        "NOT_DIR, NotADirectoryException",
        "IS_DIR, SmartSsdException",
        "NOT_EMPTY, DirectoryNotEmptyException",
        "NAME_TOO_LONG, SmartSsdException",
        "DRIVE_FULL, DriveFullException",
        "TOO_MANY_OBJECTS, DriveFullException",
        "BAD_LAYOUT, TaskletFailedException",
        "UNKNOWN_TASKLET, TaskletFailedException",
        "TASKLET_PARAMS, TaskletFailedException",
        "TASKLET_BUDGET, TaskletFailedException",
        "TASKLET_STEPS, TaskletFailedException",
        "TASKLET_FAILED, TaskletFailedException",
        "TASKLET_RUNNING, SmartSsdException",
        "MEDIA_ERROR, SmartSsdException",
        "LBA_RANGE, SmartSsdException",
        "LBA_PROTECTED, SmartSsdException",
        "BAD_SESSION, TransportClosedException",
        "RENAME_INTO_SELF, SmartSsdException",
        "ROOT, SmartSsdException",
        "TASKLET_WATCHDOG, TaskletFailedException",
        "NO_SUCH_ATTR, SmartSsdException",
        "STORE_DAMAGED, SmartSsdException",
        "STALE_BLOCK, SmartSsdException",
        "CANCELED, SmartSsdException",
        "TOO_MANY_SESSIONS, SmartSsdException",
        "INPUT_UNSUPPORTED, TaskletFailedException",
        "INPUT_MALFORMED, TaskletFailedException",
        "PLAN_MISMATCH, TaskletFailedException",
        "PROGRAM_REFUSED, SmartSsdException",
        "WRONG_INTERFACE, SmartSsdException",
        "NOT_WRITE_POINTER, SmartSsdException",
        "WRITE_UNIT, SmartSsdException",
        "CHUNK_FULL, SmartSsdException",
        "CHUNK_OFFLINE, SmartSsdException",
        "READ_UNWRITTEN, SmartSsdException",
        "ZONE_STATE, SmartSsdException",
    })
    void everyReasonHasItsTypedException(String reason, String type) {
        Reason r = Reason.valueOf(reason);
        // The errno is deliberately unrelated: the reason must decide.
        IOException e = Errors.translate(-Errno.EIO, r.code(), "op /a/b");
        assertThat(e.getClass().getSimpleName()).isEqualTo(type);
        assertThat(((SmartSsdError) e).reason()).isEqualTo(r);
        assertThat(((SmartSsdError) e).errno()).isEqualTo(Errno.EIO);
        assertThat(e.getMessage()).startsWith("op /a/b: ").contains(reason);
    }

    @Test
    void everyNonZeroReasonIsCoveredByTheTable() {
        // the table above lists 50 reasons: all but OK
        assertThat(Reason.values()).hasSize(51);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "TASKLET_PARAMS, PARAMS", "BAD_LAYOUT, LAYOUT", "UNKNOWN_TASKLET, UNKNOWN_TASKLET",
        "TASKLET_BUDGET, BUDGET", "TASKLET_STEPS, STEPS", "TASKLET_FAILED, OTHER",
        "TASKLET_WATCHDOG, OTHER", "INPUT_UNSUPPORTED, INPUT_UNSUPPORTED",
        "INPUT_MALFORMED, INPUT_MALFORMED", "PLAN_MISMATCH, PLAN_MISMATCH"})
    void taskletFailuresCarryTheDrivesReason(String reason, String failure) {
        IOException e = Errors.translate(-Errno.EINVAL, Reason.valueOf(reason).code(), "x");
        assertThat(((TaskletFailedException) e).failure()).isEqualTo(Failure.valueOf(failure));
    }

    @ParameterizedTest(name = "errno {0} -> {1}")
    @CsvSource({
        "2, NoSuchObjectException", "17, ObjectExistsException", "20, NotADirectoryException",
        "21, SmartSsdException", "39, DirectoryNotEmptyException",
        "36, SmartSsdException", "28, DriveFullException", "11, SmartSsdException",
        "16, SmartSsdException", "22, SmartSsdException", "62, TaskletFailedException",
        "71, SmartSsdException", "74, SmartSsdException",
        "107, TransportClosedException", "104, TransportClosedException",
        "32, TransportClosedException", "111, TransportClosedException",
        "5, SmartSsdException", "110, SmartSsdException",
        "95, SmartSsdException", "38, SmartSsdException",
        "87, SmartSsdException", "12, SmartSsdException", "13, DriveAccessDeniedException",
        "1, DriveAccessDeniedException"})
    void withoutAReasonTheErrnoDecides(int errno, String type) {
        IOException e = Errors.translate(-errno, 0, "ctx");
        assertThat(e.getClass().getSimpleName()).isEqualTo(type);
        assertThat(((SmartSsdError) e).errno()).isEqualTo(errno);
        assertThat(((SmartSsdError) e).reason()).isEqualTo(Reason.OK);
    }

    @Test
    void unknownReasonCodeFallsBackToErrnoAndKeepsTheCode() {
        IOException e = Errors.translate(-Errno.ENOENT, 77, "lookup /x");
        assertThat(e).isInstanceOf(NoSuchObjectException.class);
        assertThat(((SmartSsdError) e).reasonCode()).isEqualTo(77);
        assertThat(e.getMessage()).contains("drive reason 77");
    }

    @Test
    void noSuchObjectIsAFileNotFoundException() {
        assertThat(Errors.translate(-2, Reason.NO_SUCH_OBJECT.code(), "x"))
                .isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void accessDeniedIsJavasAccessDeniedException() {
        IOException e = Errors.translate(-Errno.EACCES, 0, "unix:/s: open");
        assertThat(e).isInstanceOf(java.nio.file.AccessDeniedException.class)
                .hasMessageStartingWith("unix:/s: open: access denied");
        assertThat(((SmartSsdError) e).errno()).isEqualTo(Errno.EACCES);
    }

    @Test
    void packedNativeResultsDecode() {
        // -((reason << 32) | errno), computed by hand for reason 24, errno 12
        long rc = -((24L << 32) | 12L);
        assertThat(rc).isEqualTo(-103079215116L);
        assertThat(Errors.errnoOf(rc)).isEqualTo(12);
        assertThat(Errors.reasonOf(rc)).isEqualTo(24);
        assertThat(Errors.errnoOf(-2)).isEqualTo(2);
        assertThat(Errors.reasonOf(-2)).isZero();
    }

    @Test
    void messagesNameTheSubjectAndSuggestWhatToDo() {
        IOException e = Errors.translate(-Errno.ENOMEM, Reason.TASKLET_BUDGET.code(),
                "emu:/tmp/d.img: tasklet 3");
        assertThat(e.getMessage()).isEqualTo("emu:/tmp/d.img: tasklet 3: the tasklet overran its "
                + "memory budget (TASKLET_BUDGET, ENOMEM); create the tasklet with a larger "
                + "memory budget");
        IOException t = Errors.translate(-Errno.ENOTCONN, 0, "unix:/s: read object 5");
        assertThat(t.getMessage()).contains("unix:/s: read object 5")
                .contains("ENOTCONN").contains("smartssd-devd running");
    }

    @ParameterizedTest(name = "progress error {0} -> {1}")
    @CsvSource({"-12, BUDGET", "-62, STEPS", "-22, PARAMS", "-5, OTHER", "0, OTHER"})
    void failedTaskletProgressMapsThroughTheDrivesReasons(int error, String failure) {
        IOException e = Errors.taskletFailed(error, "tasklet 1");
        assertThat(e).isInstanceOf(TaskletFailedException.class);
        assertThat(((TaskletFailedException) e).failure()).isEqualTo(Failure.valueOf(failure));
    }
}
