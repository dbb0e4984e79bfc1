package org.smartssd.device;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads {@code libsmartssd_jni.so} once per class loader. Tried in order:
 * <ol>
 *   <li>the file named by the system property {@value #PATH_PROPERTY};</li>
 *   <li>{@code System.loadLibrary("smartssd_jni")} through {@code java.library.path};</li>
 *   <li>{@code /native/<os>/<arch>/libsmartssd_jni.so} from the classpath (the smartssd-native
 *       jar), copied to a temporary file and loaded from there.</li>
 * </ol>
 * When all fail, one {@link UnsatisfiedLinkError} lists every attempt and why it failed, so
 * nobody has to set {@code -Djava.library.path}.
 */
public final class NativeLoader {
    public static final String PATH_PROPERTY = "smartssd.native.path";
    static final String LIB_NAME = "smartssd_jni";

    private static boolean loaded;

    private NativeLoader() {
    }

    /** Loads the library unless it already is. Idempotent and thread-safe. */
    public static synchronized void load() {
        if (loaded) {
            return;
        }
        UnsatisfiedLinkError e = attemptAll(System.getProperty(PATH_PROPERTY), LIB_NAME,
                resourcePath());
        if (e != null) {
            throw e;
        }
        loaded = true;
    }

    /**
     * Tries the three places in order. Returns null once one loaded the library, else the
     * one error listing every attempt.
     */
    static UnsatisfiedLinkError attemptAll(String propertyPath, String libName, String resource) {
        List<String> attempts = new ArrayList<>();
        if (tryProperty(propertyPath, attempts) || tryLibraryPath(libName, attempts)
                || tryResource(resource, attempts)) {
            return null;
        }
        StringBuilder msg = new StringBuilder("cannot load the smartssd JNI library ")
                .append(System.mapLibraryName(libName)).append("; tried:");
        for (String a : attempts) {
            msg.append("\n  - ").append(a);
        }
        msg.append("\nBuild and install the native module (in the checkout: mvn -B install "
                + "-DskipTests -pl native) or point -D" + PATH_PROPERTY + " at the library.");
        return new UnsatisfiedLinkError(msg.toString());
    }

    /** True once {@link #load()} succeeded. */
    public static synchronized boolean isLoaded() {
        return loaded;
    }

    /** The resource path of the library for this platform, e.g. /native/linux/amd64/... */
    static String resourcePath() {
        return "/native/" + osName() + "/" + archName() + "/" + System.mapLibraryName(LIB_NAME);
    }

    static String osName() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) {
            return "linux";
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return "darwin";
        }
        if (os.startsWith("windows")) {
            return "windows";
        }
        return os.replaceAll("[^a-z0-9]", "");
    }

    static String archName() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        switch (arch) {
            case "amd64":
            case "x86_64":
                return "amd64";
            case "aarch64":
            case "arm64":
                return "aarch64";
            default:
                return arch;
        }
    }

    private static boolean tryProperty(String path, List<String> attempts) {
        if (path == null || path.isEmpty()) {
            attempts.add("-D" + PATH_PROPERTY + ": not set");
            return false;
        }
        try {
            System.load(Path.of(path).toAbsolutePath().toString());
            return true;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            attempts.add("-D" + PATH_PROPERTY + "=" + path + ": " + e.getMessage());
            return false;
        }
    }

    private static boolean tryLibraryPath(String libName, List<String> attempts) {
        try {
            System.loadLibrary(libName);
            return true;
        } catch (UnsatisfiedLinkError | SecurityException e) {
            attempts.add("java.library.path=" + System.getProperty("java.library.path") + ": "
                    + e.getMessage());
            return false;
        }
    }

    private static boolean tryResource(String res, List<String> attempts) {
        Path tmp = null;
        try (InputStream in = NativeLoader.class.getResourceAsStream(res)) {
            if (in == null) {
                attempts.add("classpath resource " + res + ": not found (is smartssd-native on "
                        + "the classpath?)");
                return false;
            }
            tmp = Files.createTempFile("libsmartssd_jni-", ".so");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            System.load(tmp.toAbsolutePath().toString());
            return true;
        } catch (IOException | UnsatisfiedLinkError | SecurityException e) {
            attempts.add("classpath resource " + res + ": " + e);
            return false;
        } finally {
            // Once loaded the mapping stays valid; the file itself is no longer needed.
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    tmp.toFile().deleteOnExit();
                }
            }
        }
    }
}
