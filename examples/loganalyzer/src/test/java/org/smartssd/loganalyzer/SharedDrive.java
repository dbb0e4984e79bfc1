package org.smartssd.loganalyzer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One embedded emulated drive (kang-smartssd) for every test in the JVM: smartssd:// gives
 * an unconfigured device name one embedded drive per JVM anyway.
 */
public final class SharedDrive {
    private static LogAnalyzer analyzer;

    private SharedDrive() {
    }

    public static synchronized LogAnalyzer get() {
        if (analyzer == null) {
            try {
                Path dir = Files.createTempDirectory("loganalyzer-test-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
                analyzer = LogAnalyzer.embedded(dir, 512L << 20, null);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return analyzer;
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit
        }
    }
}
