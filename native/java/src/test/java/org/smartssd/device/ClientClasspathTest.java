package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The client jar ships no command-line libraries (issue #36): its runtime classpath, as
 * Maven resolved it into target/classpath.txt, holds neither picocli nor progressbar (nor
 * progressbar's JLine). The smartssd command and its progress bar are smartssd-cli.
 */
class ClientClasspathTest {
    private static final Pattern COMMAND_LINE_JAR =
            Pattern.compile("(picocli|progressbar|jline(-[a-z]+)?)-\\d[^/]*\\.jar");

    @Test
    void runtimeClasspathHasNoCommandLineLibraries() throws Exception {
        String file = System.getProperty("smartssd.client.classpath");
        assertThat(file).as("system property smartssd.client.classpath (set by native/java/pom.xml)")
                .isNotNull();
        Path cp = Path.of(file);
        assertThat(cp).as("the runtime classpath Maven writes at generate-resources").isRegularFile();
        List<String> entries = Arrays.stream(Files.readString(cp).strip().split(File.pathSeparator))
                .filter(e -> !e.isBlank()).toList();

        // smartssd-native at least, as a jar or (before packaging) its classes directory
        assertThat(entries).as("the classpath in " + cp).isNotEmpty()
                .allMatch(e -> Files.exists(Path.of(e)), "each entry exists");
        assertThat(entries).as("command-line libraries on smartssd-client's runtime classpath " + cp)
                .noneMatch(e -> COMMAND_LINE_JAR.matcher(Path.of(e).getFileName().toString()).matches());
    }
}
