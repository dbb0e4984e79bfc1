package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Command-line handling that needs no drive. */
class CliUsageTest {
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code = SmartSsdCli.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsSubcommandsAndExitCodes() {
        Run r = run("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("format", "devd", "info", "health", "put", "get", "ls", "rm", "replay")
                .contains("Exit codes:").contains("2  not found").contains("3  drive or link error");
    }

    @Test
    void usageErrorsExitWithOneAndSayWhatToTry() {
        Run none = run();
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("subcommand is required");

        Run missing = run("ls");
        assertThat(missing.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("URI").contains("smartssd ls --help");

        Run unknown = run("frobnicate");
        assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void badUrisAreUsageErrors() {
        Run ls = run("ls", "/tmp/dev0.img");
        assertThat(ls.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(ls.err()).contains("not a drive URI").contains("emu:");
        Run fmt = run("format", "unix:/tmp/s.sock");
        assertThat(fmt.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(fmt.err()).contains("format takes an emu: URI");
        Run cap = run("format", "emu:/tmp/x.img", "--capacity", "lots");
        assertThat(cap.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(cap.err()).contains("'lots' is not a size");
    }

    @Test
    void putOfAMissingLocalFileIsNotFound() {
        Run r = run("put", "emu:/tmp/none.img", "/no/such/local/file", "/x");
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.err()).contains("/no/such/local/file");
    }

    @Test
    void everySubcommandHasHelpThatExitsZero() {
        for (String cmd : new String[] {"format", "devd", "info", "health", "put", "get", "ls",
            "rm", "replay"}) {
            for (String[] args : new String[][] {{cmd, "--help"}, {cmd, "-h"}, {"help", cmd}}) {
                Run r = run(args);
                assertThat(r.code()).as("%s: %s", String.join(" ", args), r.err()).isZero();
                assertThat(r.out()).as(String.join(" ", args)).contains("Usage: smartssd " + cmd)
                        .doesNotContain("Missing required");
            }
        }
    }
}
