package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starting smartssd-devd: {@link Devd#start} returns only once the daemon has signalled that
 * its socket listens, whatever was at the path before.
 */
class DevdStartTest {
    private static final Duration READY = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /** A socket file left by a killed daemon; nobody listens on it. */
    private static void staleSocket(Path path) throws IOException {
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(path));
        }
        assertThat(path).exists();
    }

    @Test
    void everyCallSucceedsRightAfterStartEvenOverAStaleSocketFile() throws Exception {
        Path image = TestDrives.image(dir);
        Path sock = dir.resolve("d.sock");
        staleSocket(sock);
        for (int round = 0; round < 20; round++) {
            Devd devd = Devd.start(image, sock, READY);
            try (SmartSsdDevice dev = SmartSsdDevice.open(devd.uri())) {
                assertThat(dev.info().capacityBytes()).isPositive();
            } finally {
                devd.kill();   // SIGKILL leaves the socket file behind for the next round
            }
            assertThat(sock).exists();
        }
    }

    @Test
    void aPathThatIsNotASocketIsRefusedAndKept() throws Exception {
        Path image = TestDrives.image(dir);
        Path notes = Files.writeString(dir.resolve("notes.txt"), "keep me");
        long imageSize = Files.size(image);

        assertThatThrownBy(() -> Devd.start(image, notes, READY))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exited with status 1")
                .hasMessageContaining("is not a socket");
        assertThat(notes).hasContent("keep me");
        assertThatThrownBy(() -> Devd.start(image, image, READY))
                .hasMessageContaining("is not a socket");
        assertThat(Files.size(image)).isEqualTo(imageSize);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + image)) {
            assertThat(dev.info().capacityBytes()).isPositive();
        }
    }

    @Test
    void aSecondDaemonCannotTakeOverALiveDaemonsPath() throws Exception {
        Path first = TestDrives.image(dir);
        Path otherDir = Files.createDirectory(dir.resolve("other"));
        Path second = TestDrives.image(otherDir);
        Path sock = dir.resolve("d.sock");
        try (Devd devd = Devd.start(first, sock, READY)) {
            assertThatThrownBy(() -> Devd.start(second, sock, READY))
                    .hasMessageContaining("another daemon is serving " + sock);
            try (SmartSsdDevice dev = SmartSsdDevice.open(devd.uri())) {
                dev.create("/still-here", ObjectType.FILE);
                assertThat(dev.lookup("/still-here").size()).isZero();
            }
        }
    }

    @Test
    void daemonArgumentsWithoutASocketAreRejectedBeforeStarting() {
        assertThatThrownBy(() -> Devd.start(List.of("--image", "x.img"), READY, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--socket");
    }

    /**
     * A daemon's last words are in the error even when its exit is seen before they are read
     * (a race: the loop of 50 rounds once got "exited with status 1" without "is not a
     * socket"). This stand-in closes its ready pipe and writes 20,000 lines to stderr before
     * its last words: with its stderr on a pipe, the exit was usually seen long before the
     * words were read (and they were lost when the JDK closed the pipe at the exit).
     */
    @Test
    void theDaemonsLastWordsAreInTheErrorEvenWhenTheyComeAfterItsExit() throws Exception {
        Path late = dir.resolve("late-devd");
        Files.writeString(late, "#!/bin/sh\nexec 1>&-\nseq 20000 >&2\necho 'refusing: late words' >&2\nexit 1\n");
        late.toFile().setExecutable(true);
        String before = System.getProperty(Devd.PROPERTY);
        System.setProperty(Devd.PROPERTY, late.toString());
        try {
            assertThatThrownBy(() -> Devd.start(dir.resolve("d.img"), dir.resolve("d.sock"), READY))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("exited with status 1")
                    .hasMessageContaining("refusing: late words");
        } finally {
            if (before == null) {
                System.clearProperty(Devd.PROPERTY);
            } else {
                System.setProperty(Devd.PROPERTY, before);
            }
        }
    }
}
