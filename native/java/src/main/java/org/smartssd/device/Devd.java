package org.smartssd.device;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The emulated-drive daemon {@code smartssd-devd}: finds its binary and runs it as a child
 * process serving one image on a unix socket ({@code unix:SOCKET}).
 *
 * <p>The binary is looked for, in order: the system property {@value #PROPERTY}; the
 * environment variable {@value #ENV}; under the C build output of a checkout
 * ({@code native/target/cmake-release}, found from the system properties
 * {@code smartssd.native.build} or {@code smartssd.home}); the {@code PATH}.
 */
public final class Devd implements AutoCloseable {
    public static final String PROPERTY = "smartssd.devd";
    public static final String ENV = "SMARTSSD_DEVD";
    public static final String BINARY = "smartssd-devd";

    private final Process process;
    private final Path socket;

    private Devd(Process process, Path socket) {
        this.process = process;
        this.socket = socket;
    }

    /** The daemon binary, or empty with nothing found. */
    public static Optional<Path> locate() {
        for (String explicit : new String[] {System.getProperty(PROPERTY), System.getenv(ENV)}) {
            if (explicit != null && !explicit.isBlank()) {
                Path p = Path.of(explicit);
                return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
            }
        }
        List<Path> builds = new ArrayList<>();
        String build = System.getProperty("smartssd.native.build");
        if (build != null) {
            builds.add(Path.of(build));
        }
        String home = System.getProperty("smartssd.home");
        if (home != null) {
            builds.add(Path.of(home, "native", "target", "cmake-release"));
        }
        for (Path b : builds) {
            Optional<Path> found = search(b);
            if (found.isPresent()) {
                return found;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, BINARY);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> search(Path buildDir) {
        if (!Files.isDirectory(buildDir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(buildDir, 6)) {
            return s.filter(p -> p.getFileName().toString().equals(BINARY))
                    .filter(Files::isExecutable).findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** The binary, or an exception saying how to build it. */
    public static Path require() throws IOException {
        return locate().orElseThrow(() -> new java.io.FileNotFoundException(BINARY
                + " not found (looked at -D" + PROPERTY + ", $" + ENV
                + ", native/target/cmake-release and PATH); build it with "
                + "'mvn -B install -DskipTests -pl native'"));
    }

    /**
     * Starts the daemon on {@code image}, serving {@code socket}, and waits until the socket
     * accepts files to appear (the daemon creates it once it listens).
     *
     * @param extraArgs further daemon options, passed as they are
     */
    public static Devd start(Path image, Path socket, Duration timeout, String... extraArgs)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(require().toString(), "--image",
                image.toString(), "--socket", socket.toString()));
        cmd.addAll(List.of(extraArgs));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + timeout.toNanos();
        long wait = TimeUnit.MILLISECONDS.toNanos(1);
        while (!Files.exists(socket)) {
            if (!p.isAlive()) {
                throw new IOException(BINARY + " exited with status " + p.exitValue()
                        + " before listening on " + socket + " (command: " + cmd + ")");
            }
            if (System.nanoTime() - deadline > 0) {
                p.destroyForcibly();
                throw new IOException(BINARY + " did not create " + socket + " within "
                        + timeout);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(wait);
            wait = Math.min(wait * 2, TimeUnit.MILLISECONDS.toNanos(50));
        }
        return new Devd(p, socket);
    }

    /** {@code unix:} URI of the served drive. */
    public String uri() {
        return "unix:" + socket;
    }

    public Process process() {
        return process;
    }

    /** Kills the daemon at once (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Stops the daemon (SIGTERM, then SIGKILL after 5 s). */
    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
