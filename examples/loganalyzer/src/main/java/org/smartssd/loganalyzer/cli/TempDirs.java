package org.smartssd.loganalyzer.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Temp folders removed when the JVM exits. The file system's own exit hook may remove the
 * embedded drive's folder inside at the same time, so what is already gone is fine.
 */
final class TempDirs {
    private TempDirs() {
    }

    static Path create() throws IOException {
        Path d = Files.createTempDirectory("loganalyzer-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(d), "loganalyzer-cleanup"));
        return d;
    }

    static void delete(Path d) {
        try {
            Files.walkFileTree(d, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e)
                        throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            System.err.println("loganalyzer: could not remove " + d + ": " + e.getMessage());
        }
    }
}
