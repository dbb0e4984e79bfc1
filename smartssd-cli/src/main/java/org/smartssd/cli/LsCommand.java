package org.smartssd.cli;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.DirEntry;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd ls URI [PATH]}: list a directory of the drive. */
@Command(name = "ls", mixinStandardHelpOptions = true,
        description = "List a directory on the drive (or show one file). With -l: "
        + "type, size, modification time (UTC) and object id.")
final class LsCommand implements Callable<Integer> {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Parameters(index = "1", paramLabel = "PATH", defaultValue = "/",
            description = "directory or file (default: /)")
    String path;

    @Option(names = "-l", description = "long listing (one stat per entry)")
    boolean longFormat;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            ObjectStat st = d.lookup(path);
            if (!st.isDirectory()) {
                print(st, path);
                return ExitCodes.OK;
            }
            List<DirEntry> entries = new java.util.ArrayList<>(d.list(path));
            entries.sort(Comparator.comparing(DirEntry::name));
            for (DirEntry e : entries) {
                if (longFormat) {
                    print(d.stat(e.oid()), e.name());
                } else {
                    cli.out.println(e.type() == ObjectType.DIRECTORY ? e.name() + "/" : e.name());
                }
            }
            return ExitCodes.OK;
        }
    }

    private void print(ObjectStat s, String name) {
        if (!longFormat) {
            cli.out.println(name);
            return;
        }
        String type = s.type() == ObjectType.DIRECTORY ? "d" : s.type() == ObjectType.OUTPUT ? "o" : "-";
        cli.out.printf("%s %12d %s %8d %s%n", type, s.size(),
                TIME.format(Instant.ofEpochSecond(0, s.mtimeNs())), s.oid(),
                s.isDirectory() ? name + "/" : name);
    }
}
