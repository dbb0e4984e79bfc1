package org.smartssd.device;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The emulated-drive daemon {@code smartssd-devd}: finds its binary and runs it as a child
 * process serving one image on a unix socket ({@code unix:SOCKET}).
 *
 * <p>The binary is looked for as {@link NativeBinaries} says, the system property being
 * {@value #PROPERTY} and the environment variable {@value #ENV}.
 */
public final class Devd implements AutoCloseable {
    public static final String PROPERTY = "smartssd.devd";
    public static final String ENV = "SMARTSSD_DEVD";
    public static final String BINARY = "smartssd-devd";
    /* How long an error waits for the daemon's end once it is killed. */
    private static final Duration STDERR_END = Duration.ofSeconds(10);
    private static final int LAST_LINES = 20;

    private final Process process;
    private final Path socket;
    private final Path stderrFile;   // null when the daemon writes where this process does

    private Devd(Process process, Path socket, Path stderrFile) {
        this.process = process;
        this.socket = socket;
        this.stderrFile = stderrFile;
    }

    /** The daemon binary, or empty with nothing found. */
    public static Optional<Path> locate() {
        return NativeBinaries.locate(BINARY, PROPERTY, ENV);
    }

    /** The binary, or an exception saying how to build it. */
    public static Path require() throws IOException {
        return locate().orElseThrow(() -> new java.io.FileNotFoundException(BINARY
                + " not found (looked at -D" + PROPERTY + ", $" + ENV
                + ", native/target/cmake-release and PATH); build it with "
                + "'mvn -B install -DskipTests -pl native'"));
    }

    /**
     * Starts the daemon on {@code image}, serving {@code socket}, and waits until it signals
     * readiness: the daemon writes {@code READY=1} on its standard output ({@code --ready-fd
     * 1}) once the socket listens. The socket file's existence proves nothing (a killed
     * daemon leaves one behind). The daemon's standard error is kept, its last lines going
     * into the exception when it fails to start.
     *
     * @param extraArgs further daemon options, passed as they are
     */
    public static Devd start(Path image, Path socket, Duration timeout, String... extraArgs)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--image", image.toString(), "--socket",
                socket.toString()));
        args.addAll(List.of(extraArgs));
        return start(args, timeout, false);
    }

    /**
     * Starts the daemon with {@code daemonArgs} (which name {@code --socket}) and waits for
     * its readiness signal, as {@link #start(Path, Path, Duration, String...)} does.
     *
     * @param inheritStderr the daemon writes its log where this process does (for a daemon
     *     meant to outlive this process); otherwise its last lines are kept for errors
     */
    public static Devd start(List<String> daemonArgs, Duration timeout, boolean inheritStderr)
            throws IOException {
        Path socket = socketOf(daemonArgs);
        List<String> cmd = new ArrayList<>();
        cmd.add(require().toString());
        cmd.addAll(daemonArgs);
        cmd.addAll(List.of("--ready-fd", "1"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // A file, not a pipe: once the daemon has exited, everything it wrote is in the
        // file, while a pipe's reader may not have read its last words yet (the loop of 50
        // rounds caught an error without them).
        Path stderrFile = null;
        if (inheritStderr) {
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        } else {
            stderrFile = java.nio.file.Files.createTempFile("smartssd-devd-", ".stderr");
            pb.redirectError(stderrFile.toFile());
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            deleteQuietly(stderrFile);
            throw e;
        }
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread watcher = new Thread(() -> ready.complete(readsReady(p.getInputStream())),
                "smartssd-devd ready " + socket);
        watcher.setDaemon(true);
        watcher.start();
        boolean signalled;
        try {
            signalled = ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            String said = lastWords(p, stderrFile);
            throw new IOException(BINARY + " did not signal readiness on " + socket + " within "
                    + timeout + " (command: " + cmd + ")" + said);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            deleteQuietly(stderrFile);
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for " + BINARY
                    + " to serve " + socket);
        } catch (ExecutionException e) {
            lastWords(p, stderrFile);
            throw new IOException("cannot read " + BINARY + "'s readiness", e.getCause());
        }
        if (!signalled) {
            String status;
            try {
                status = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                        ? "exited with status " + p.exitValue() : "closed its readiness pipe";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = "closed its readiness pipe";
            }
            String said = lastWords(p, stderrFile);
            throw new IOException(BINARY + " " + status + " before listening on " + socket
                    + " (command: " + cmd + ")" + said);
        }
        return new Devd(p, socket, stderrFile);
    }

    /**
     * Kills the daemon if it still runs, waits for its end (bounded), and returns the last
     * lines it wrote to its stderr file ("" when it inherited this process's), deleting it.
     */
    private static String lastWords(Process p, Path stderrFile) {
        p.destroyForcibly();
        try {
            p.waitFor(STDERR_END.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stderrFile == null) {
            return "";
        }
        try {
            List<String> lines = java.nio.file.Files.readAllLines(stderrFile,
                    StandardCharsets.UTF_8);
            List<String> tail = lines.subList(Math.max(0, lines.size() - LAST_LINES),
                    lines.size());
            return tail.isEmpty() ? "" : "; it said: " + String.join(" | ", tail);
        } catch (IOException e) {
            return "; its stderr (" + stderrFile + ") could not be read: " + e.getMessage();
        } finally {
            deleteQuietly(stderrFile);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                java.nio.file.Files.deleteIfExists(file);
            } catch (IOException e) {
                // a temporary file left behind; nothing depends on it
            }
        }
    }

    private static Path socketOf(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--socket") && i + 1 < args.size()) {
                return Path.of(args.get(i + 1));
            }
            if (a.startsWith("--socket=")) {
                return Path.of(a.substring("--socket=".length()));
            }
        }
        throw new IllegalArgumentException(BINARY + " needs --socket PATH (got " + args + ")");
    }

    /** True once the daemon's readiness line arrives; false at the end of its output. */
    private static boolean readsReady(InputStream out) {
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(out, StandardCharsets.US_ASCII))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.equals("READY=1")) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
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
        deleteQuietly(stderrFile);
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
        deleteQuietly(stderrFile);
    }
}
