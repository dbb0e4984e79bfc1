package org.smartssd.device;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the programs of the C build that the Java side runs ({@code smartssd-devd},
 * {@code smartssd-replay}). Looked for, in order: a system property; an environment
 * variable; under the C build output of a checkout ({@code native/target/cmake-release},
 * found from the system properties {@code smartssd.native.build} or {@code smartssd.home});
 * the {@code PATH}.
 */
public final class NativeBinaries {
    private NativeBinaries() {
    }

    /**
     * @param binary the program's file name
     * @param property the system property naming its path (wins when set)
     * @param env the environment variable naming its path
     * @return the program, or empty with nothing found
     */
    public static Optional<Path> locate(String binary, String property, String env) {
        for (String explicit : new String[] {System.getProperty(property), System.getenv(env)}) {
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
            Optional<Path> found = search(b, binary);
            if (found.isPresent()) {
                return found;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path p = Path.of(dir, binary);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> search(Path buildDir, String binary) {
        if (!Files.isDirectory(buildDir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(buildDir, 6)) {
            return s.filter(p -> p.getFileName().toString().equals(binary))
                    .filter(Files::isExecutable).findFirst();
        } catch (IOException | java.io.UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
