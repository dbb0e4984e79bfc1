package org.smartssd.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The options the figure suites share: {@code --out DIR} (required), {@code --entries N},
 * {@code --sizes 32,64,...}, {@code --seed S} and {@code --runs R}; and the removal of a
 * suite's temp folder.
 */
public record SuiteArgs(Path out, long entries, List<Integer> sizes, long seed, int runs) {
    /** Parses {@code args} over the suite's defaults; a bad option names itself. */
    public static SuiteArgs parse(String[] args, SuiteArgs defaults) {
        Path out = defaults.out();
        long entries = defaults.entries();
        List<Integer> sizes = defaults.sizes();
        long seed = defaults.seed();
        int runs = defaults.runs();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--out" -> out = Path.of(v);
                case "--entries" -> entries = Long.parseLong(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--runs" -> runs = Integer.parseInt(v);
                case "--sizes" -> sizes = Arrays.stream(v.split(",")).map(String::trim)
                        .map(Integer::valueOf).toList();
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "' (use --out DIR --entries N --sizes 32,64,128,256 --seed S --runs R)");
            }
        }
        if (out == null) {
            throw new IllegalArgumentException("--out DIR is required");
        }
        if (entries < 1 || runs < 1 || sizes.isEmpty()) {
            throw new IllegalArgumentException("--entries and --runs must be at least 1, "
                    + "--sizes not empty");
        }
        return new SuiteArgs(out, entries, sizes, seed, runs);
    }

    /** Removes a folder and everything in it (a suite's temp folder). */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
