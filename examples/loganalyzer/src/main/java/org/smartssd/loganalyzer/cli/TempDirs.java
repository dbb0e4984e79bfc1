package org.smartssd.loganalyzer.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Temp folders removed when the JVM exits. */
final class TempDirs {
    private TempDirs() {
    }

    static Path create() throws IOException {
        Path d = Files.createTempDirectory("loganalyzer-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(d), "loganalyzer-cleanup"));
        return d;
    }

    static void delete(Path d) {
        if (!Files.exists(d)) {
            return;
        }
        try {
            Files.walkFileTree(d, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e)
                        throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + d, e);
        }
    }
}
