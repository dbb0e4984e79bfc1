package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The JVM binds a native method only when it is first called, so a native without its C
 * function fails only then. This checks, without calling any, that the library exports
 * exactly one function per native method of {@link SmartSsdNative} (none missing, none left
 * from a class that no longer has it), and that no other class of the client declares a
 * native method.
 */
class NativeBindingTest {
    private static final String PREFIX = "Java_org_smartssd_device_SmartSsdNative_";

    @Test
    void theLibraryExportsExactlyTheNativesOfSmartSsdNative() throws IOException {
        Set<String> declared = new TreeSet<>();
        for (Method m : SmartSsdNative.class.getDeclaredMethods()) {
            if (Modifier.isNative(m.getModifiers())) {
                // the short JNI name, which the C uses: overloads would need the long one
                assertThat(declared.add(PREFIX + m.getName().replace("_", "_1")))
                        .as("native %s is overloaded", m.getName()).isTrue();
            }
        }
        assertThat(declared).hasSizeGreaterThan(50);

        Set<String> exported = new TreeSet<>();
        for (String s : dynamicSymbols(loadedLibrary())) {
            if (s.startsWith("Java_")) {
                exported.add(s);
            }
        }
        assertThat(exported).isEqualTo(declared);
    }

    @Test
    void noOtherClassOfTheClientDeclaresANative() throws Exception {
        Path classes = Path.of(SmartSsdNative.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        List<String> withNatives = new ArrayList<>();
        int seen = 0;
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))
                    ::iterator) {
                String name = classes.relativize(f).toString().replace('/', '.')
                        .replaceAll("\\.class$", "");
                Class<?> c = Class.forName(name, false, SmartSsdNative.class.getClassLoader());
                seen++;
                for (Method m : c.getDeclaredMethods()) {
                    if (Modifier.isNative(m.getModifiers()) && c != SmartSsdNative.class) {
                        withNatives.add(c.getName() + "." + m.getName());
                    }
                }
            }
        }
        assertThat(seen).as("classes under %s", classes).isGreaterThan(50);
        assertThat(withNatives).isEmpty();
    }

    /** The library NativeLoader loads: the smartssd-native jar's, unless a path is set. */
    private static byte[] loadedLibrary() throws IOException {
        String path = System.getProperty(NativeLoader.PATH_PROPERTY);
        if (path != null && !path.isEmpty()) {
            return Files.readAllBytes(Path.of(path));
        }
        String res = NativeLoader.resourcePath();
        try (InputStream in = NativeLoader.class.getResourceAsStream(res)) {
            assertThat(in).as("classpath resource %s (smartssd-native)", res).isNotNull();
            return in.readAllBytes();
        }
    }

    /** The names of the symbols an ELF64 little-endian shared object defines in .dynsym. */
    static List<String> dynamicSymbols(byte[] elf) {
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).as("ELF magic").isEqualTo(0x464c457f);
        assertThat(b.get(4)).as("ELFCLASS64").isEqualTo((byte) 2);
        assertThat(b.get(5)).as("ELFDATA2LSB").isEqualTo((byte) 1);
        long shoff = b.getLong(0x28);
        int shentsize = Short.toUnsignedInt(b.getShort(0x3a));
        int shnum = Short.toUnsignedInt(b.getShort(0x3c));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            if (b.getInt(sh + 4) != 11) { // SHT_DYNSYM
                continue;
            }
            int symoff = (int) b.getLong(sh + 0x18);
            int symsize = (int) b.getLong(sh + 0x20);
            int entsize = (int) b.getLong(sh + 0x38);
            int strsh = (int) (shoff + (long) b.getInt(sh + 0x28) * shentsize);
            int stroff = (int) b.getLong(strsh + 0x18);
            for (int at = symoff; at < symoff + symsize; at += entsize) {
                if (b.getShort(at + 6) == 0) { // SHN_UNDEF: imported, not defined here
                    continue;
                }
                int from = stroff + b.getInt(at);
                int to = from;
                while (elf[to] != 0) {
                    to++;
                }
                names.add(new String(elf, from, to - from, StandardCharsets.US_ASCII));
            }
        }
        assertThat(names).as("defined dynamic symbols").isNotEmpty();
        return names;
    }
}
