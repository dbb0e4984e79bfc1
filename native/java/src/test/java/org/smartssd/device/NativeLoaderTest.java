package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLoaderTest {
    @Test
    void resourcePathFollowsTheJarLayout() {
        // native/pom.xml packs the library at /native/linux/amd64/ on this platform
        if (System.getProperty("os.arch").equals("amd64")) {
            assertThat(NativeLoader.resourcePath()).isEqualTo(
                    "/native/linux/amd64/libsmartssd_jni.so");
        }
        assertThat(NativeLoader.resourcePath()).startsWith("/native/linux/");
    }

    @Test
    void oneErrorListsEveryAttempt(@TempDir Path dir) {
        Path notALib = dir.resolve("missing/libsmartssd_jni.so");
        UnsatisfiedLinkError e = NativeLoader.attemptAll(notALib.toString(),
                "smartssd_jni_does_not_exist", "/native/none/none/libsmartssd_jni_none.so");
        assertThat(e).isNotNull();
        String m = e.getMessage();
        assertThat(m).contains("-Dsmartssd.native.path=" + notALib)
                .contains("java.library.path=")
                .contains("classpath resource /native/none/none/libsmartssd_jni_none.so: not found")
                .contains("mvn -B install -DskipTests -pl native");
        assertThat(m.lines().filter(l -> l.startsWith("  - "))).hasSize(3);
    }

    @Test
    void unsetPropertyIsReportedAsSuch() {
        UnsatisfiedLinkError e = NativeLoader.attemptAll(null, "smartssd_jni_does_not_exist",
                "/native/none/none/x.so");
        assertThat(e.getMessage()).contains("-Dsmartssd.native.path: not set");
    }
}
