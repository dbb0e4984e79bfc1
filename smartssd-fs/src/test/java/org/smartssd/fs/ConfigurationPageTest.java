package org.smartssd.fs;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md against the code: every {@code smartssd.*} / {@code fs.smartssd.*} /
 * {@code fs.sscache.*} key that main code of any module names must have a row on the page, and
 * every key the page lists must still be named by the code.
 *
 * <p>Keys are taken from the string literals of every {@code src/main/java} file of the
 * repository (comments skipped), and the {@code <name>}s of every {@code src/main/resources}
 * XML file (smartssd-default.xml): a literal that is a whole key ({@code "smartssd.mapreduce.
 * preflight"}), a per-drive prefix ending in a dot ({@code "smartssd.device."}), and the
 * suffixes that the same file appends to it ({@code ".uri"}). The page names a per-drive key
 * with a placeholder ({@code smartssd.device.<name>.uri}), a family with {@code .*}
 * ({@code smartssd.mapreduce.tasklet.*}).
 */
class ConfigurationPageTest {
    private static final Pattern KEY = Pattern.compile(
            "(?:smartssd|fs\\.smartssd|fs\\.sscache|fs\\.AbstractFileSystem\\.(?:smartssd|sscache))"
                    + "\\.[A-Za-z0-9_.<>*-]*");
    /** The namespaces themselves, which code tests keys against ({@code startsWith}). */
    private static final Set<String> NAMESPACES = Set.of("smartssd.", "fs.smartssd.",
            "fs.sscache.");
    private static final Pattern SUFFIX = Pattern.compile("\\.[a-z][A-Za-z0-9_.-]*");
    private static final Pattern XML_NAME = Pattern.compile("<name>([^<]+)</name>");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^>]+>");

    @Test
    void everyKeyTheCodeReadsIsOnThePage() throws IOException {
        Path root = repositoryRoot();
        CodeKeys code = CodeKeys.scan(root);
        List<String> page = pageKeys(root.resolve("docs/configuration.md"));
        assertTrue(code.keys.size() > 20, "found only " + code.keys + " in the code");

        List<String> missing = new ArrayList<>();
        code.keys.forEach((key, file) -> {
            if (page.stream().noneMatch(p -> covers(p, key))) {
                missing.add(key + " (" + file + ")");
            }
        });
        code.prefixes.forEach((prefix, suffixes) -> {
            if (page.stream().noneMatch(p -> p.startsWith(prefix) && p.length() > prefix.length()
                    && (p.charAt(prefix.length()) == '<' || p.charAt(prefix.length()) == '*'))) {
                missing.add(prefix + "<name>... (prefix in " + code.prefixFiles.get(prefix) + ")");
            }
            for (String suffix : suffixes) {
                String key = prefix + "x" + suffix;
                if (page.stream().noneMatch(p -> p.startsWith(prefix + "<") && covers(p, key))) {
                    missing.add(prefix + "<name>" + suffix + " (" + code.prefixFiles.get(prefix)
                            + ")");
                }
            }
        });
        if (!missing.isEmpty()) {
            fail("docs/configuration.md has no row for these keys the code reads:\n  "
                    + String.join("\n  ", missing));
        }
    }

    @Test
    void everyKeyOnThePageIsReadByTheCode() throws IOException {
        Path root = repositoryRoot();
        CodeKeys code = CodeKeys.scan(root);
        List<String> stale = new ArrayList<>();
        for (String p : pageKeys(root.resolve("docs/configuration.md"))) {
            boolean literal = code.keys.keySet().stream().anyMatch(k -> covers(p, k));
            boolean built = code.prefixes.entrySet().stream().anyMatch(e -> p.startsWith(
                    e.getKey() + "<") && (p.endsWith(".*") || e.getValue().stream().anyMatch(
                            s -> covers(p, e.getKey() + "x" + s))));
            if (!literal && !built) {
                stale.add(p);
            }
        }
        if (!stale.isEmpty()) {
            fail("docs/configuration.md lists keys no main code reads:\n  "
                    + String.join("\n  ", stale));
        }
    }

    /** The list the FileSystems warn against ({@link SmartSsdKeys}) and the page's Hadoop
     *  keys (the sections before the JVM's system properties) agree. */
    @Test
    void theListOfKnownKeysIsThePages() throws IOException {
        Path file = repositoryRoot().resolve("docs/configuration.md");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int jvm = text.indexOf("\n## JVM system properties");
        assertTrue(jvm > 0, file + " has no section '## JVM system properties'");
        Path hadoopPart = Files.createTempFile("configuration", ".md");
        List<String> page;
        try {
            Files.writeString(hadoopPart, text.substring(0, jvm), StandardCharsets.UTF_8);
            page = pageKeys(hadoopPart);
        } finally {
            Files.delete(hadoopPart);
        }
        List<String> examples = SmartSsdKeys.KNOWN.stream()
                .map(k -> k.replace("NAME", "dev0").replace("*", "x")).toList();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            String example = examples.get(i);
            if (page.stream().noneMatch(p -> covers(p, example))) {
                problems.add("known but not on the page: " + SmartSsdKeys.KNOWN.get(i));
            }
        }
        for (String p : page) {
            boolean family = p.endsWith(".*");
            String example = PLACEHOLDER.matcher(p).replaceAll("dev0");
            boolean known = family ? examples.stream().anyMatch(e -> covers(p, e))
                    : SmartSsdKeys.isKnown(example);
            if (example.startsWith(SmartSsdKeys.PREFIX) && !known) {
                problems.add("on the page but warned as unknown: " + p);
            }
        }
        if (!problems.isEmpty()) {
            fail("SmartSsdKeys.KNOWN and docs/configuration.md disagree:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** Whether the page's key (placeholders, a trailing .*) names the code's key. */
    static boolean covers(String pageKey, String codeKey) {
        String stem = pageKey.endsWith(".*") ? pageKey.substring(0, pageKey.length() - 2) : pageKey;
        StringBuilder re = new StringBuilder();
        Matcher m = PLACEHOLDER.matcher(stem);
        int at = 0;
        while (m.find()) {
            re.append(Pattern.quote(stem.substring(at, m.start()))).append("[^.]+");
            at = m.end();
        }
        re.append(Pattern.quote(stem.substring(at)));
        if (pageKey.endsWith(".*")) {
            re.append("(?:\\..+)?");
        }
        return codeKey.matches(re.toString());
    }

    /** The keys in the first cell of the page's table rows. */
    static List<String> pageKeys(Path page) throws IOException {
        if (!Files.exists(page)) {
            fail(page + " is missing");
        }
        List<String> keys = new ArrayList<>();
        Pattern cell = Pattern.compile("`([^`]+)`");
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (!line.startsWith("|")) {
                continue;
            }
            String first = line.substring(1, Math.max(1, line.indexOf('|', 1)));
            Matcher m = cell.matcher(first);
            while (m.find()) {
                String k = m.group(1).replaceFirst("^-D", "").replaceFirst("^spark\\.hadoop\\.", "");
                if (KEY.matcher(k).matches()) {
                    keys.add(k);
                }
            }
        }
        assertTrue(keys.size() > 20, page + " lists only " + keys);
        return keys;
    }

    static Path repositoryRoot() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("docs")) && Files.isDirectory(p.resolve("smartssd-fs"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (with docs/ and smartssd-fs/) above "
                + Paths.get("").toAbsolutePath());
    }

    /** The keys, per-drive prefixes and their suffixes named by string literals in main code. */
    static final class CodeKeys {
        final Map<String, String> keys = new LinkedHashMap<>();
        final Map<String, Set<String>> prefixes = new LinkedHashMap<>();
        final Map<String, String> prefixFiles = new LinkedHashMap<>();

        static CodeKeys scan(Path root) throws IOException {
            CodeKeys c = new CodeKeys();
            List<Path> files;
            try (Stream<Path> s = Files.walk(root)) {
                files = s.filter(p -> p.toString().endsWith(".java"))
                        .filter(p -> root.relativize(p).toString().replace('\\', '/')
                                .matches("(?:.+/)?src/main/java/.+"))
                        .filter(p -> !root.relativize(p).toString().contains("/target/")
                                && !root.relativize(p).startsWith("target"))
                        .sorted().toList();
            }
            assertTrue(files.size() > 50, "found only " + files.size() + " main sources");
            files.forEach(f -> c.add(root.relativize(f).toString(), literals(read(f))));
            // the defaults resources (smartssd-default.xml) name keys too
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(p -> p.toString().endsWith(".xml"))
                        .filter(p -> root.relativize(p).toString().matches(
                                "(?:.+/)?src/main/resources/.+"))
                        .filter(p -> !root.relativize(p).toString().contains("/target/"))
                        .sorted().forEach(f -> {
                            Matcher m = XML_NAME.matcher(read(f));
                            List<String> names = new ArrayList<>();
                            while (m.find()) {
                                names.add(m.group(1).trim());
                            }
                            c.add(root.relativize(f).toString(), names);
                        });
            }
            return c;
        }

        private void add(String file, List<String> literals) {
            Set<String> filePrefixes = new TreeSet<>();
            for (String l : literals) {
                if (!KEY.matcher(l).matches() || NAMESPACES.contains(l)) {
                    continue;
                }
                if (l.endsWith(".")) {
                    filePrefixes.add(l);
                    prefixFiles.putIfAbsent(l, file);
                } else {
                    keys.putIfAbsent(l, file);
                }
            }
            for (String prefix : filePrefixes) {
                Set<String> suffixes = prefixes.computeIfAbsent(prefix, k -> new TreeSet<>());
                literals.stream().filter(l -> SUFFIX.matcher(l).matches()).forEach(suffixes::add);
            }
        }

        private static String read(Path f) {
            try {
                return Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The string literals of a Java source, outside comments (text blocks skipped). */
        static List<String> literals(String src) {
            List<String> out = new ArrayList<>();
            int i = 0;
            int n = src.length();
            while (i < n) {
                char ch = src.charAt(i);
                if (src.startsWith("//", i)) {
                    i = src.indexOf('\n', i);
                    i = i < 0 ? n : i;
                } else if (src.startsWith("/*", i)) {
                    i = src.indexOf("*/", i + 2);
                    i = i < 0 ? n : i + 2;
                } else if (src.startsWith("\"\"\"", i)) {
                    i = src.indexOf("\"\"\"", i + 3);
                    i = i < 0 ? n : i + 3;
                } else if (ch == '"' || ch == '\'') {
                    StringBuilder sb = new StringBuilder();
                    int j = i + 1;
                    while (j < n && src.charAt(j) != ch) {
                        if (src.charAt(j) == '\\' && j + 1 < n) {
                            j++;
                        }
                        sb.append(src.charAt(j));
                        j++;
                    }
                    if (ch == '"') {
                        out.add(sb.toString());
                    }
                    i = j + 1;
                } else {
                    i++;
                }
            }
            return out;
        }
    }
}
