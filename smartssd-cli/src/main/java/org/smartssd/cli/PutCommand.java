package org.smartssd.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.ObjectType;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SmartSsdDevice.CreateOption;
import org.smartssd.device.SmartSsdException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code smartssd put [-f] [-r] URI LOCAL... PATH}: copy local files, and with -r directory
 * trees, onto the drive, as {@code hadoop fs -put} does: into PATH when it is a directory,
 * as PATH otherwise (one source only).
 */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Copy local files (and with -r directories, recursively) onto the "
        + "drive, as hadoop fs -put does: each LOCAL goes into PATH when PATH is a "
        + "directory, else one LOCAL becomes PATH (missing parents are created). Several "
        + "LOCALs need PATH to be a directory. A file that exists is replaced only with "
        + "--force; a file never replaces a directory, nor a directory a file. Every source "
        + "and target is checked before anything is written.")
final class PutCommand implements Callable<Integer> {
    /** WRITEs of 1 MiB in the drive at once: a chunk's pieces are queued. */
    static final int QUEUE_DEPTH = 4;
    static final int CHUNK = QUEUE_DEPTH << 20;
    private static final int ENOENT = 2;
    private static final int EEXIST = 17;
    private static final int ENOTDIR = 20;
    private static final int EISDIR = 21;

    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Parameters(index = "1..*", arity = "2..*", paramLabel = "LOCAL... PATH",
            description = "local files or directories, then the absolute path on the drive")
    List<String> operands;

    @Option(names = {"-f", "--force"}, description = "replace files that exist on the drive")
    boolean force;

    @Option(names = {"-r", "--recursive"}, description = "copy directories and their contents")
    boolean recursive;

    @Mixin
    CopyProgressOption progress;

    /** One step of the copy: a directory to make, or a local file to copy to target. */
    private record Step(Path local, String target, boolean directory) { }

    @Override
    public Integer call() throws Exception {
        List<Path> sources = new ArrayList<>();
        for (String o : operands.subList(0, operands.size() - 1)) {
            sources.add(checkSource(Path.of(o)));
        }
        String dst = operands.get(operands.size() - 1);
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            List<Step> steps = plan(d, sources, dst);
            for (Step step : steps) {
                if (step.directory()) {
                    d.mkdirs(step.target());
                } else {
                    try (FileChannel in = FileChannel.open(step.local(), StandardOpenOption.READ)) {
                        replaceAtomically(d, in, step.target());
                    }
                }
            }
            return ExitCodes.OK;
        }
    }

    private Path checkSource(Path local) throws IOException {
        if (!Files.exists(local)) {
            throw new java.nio.file.NoSuchFileException(local.toString(), null,
                    "no such local file");
        }
        if (Files.isDirectory(local) && !recursive) {
            throw new IllegalArgumentException(local + " is a directory (use -r to copy it "
                    + "and its contents)");
        }
        if (!Files.isDirectory(local) && !Files.isRegularFile(local)) {
            throw new IllegalArgumentException(local + " is not a regular file");
        }
        return local;
    }

    /** Where each source goes, as hadoop fs -put decides, checked against the drive. */
    private List<Step> plan(SmartSsdDevice d, List<Path> sources, String dst) throws IOException {
        Optional<ObjectStat> at = d.find(dst);
        boolean into = at.isPresent() && at.get().isDirectory();
        if (sources.size() > 1 && !into) {
            if (at.isEmpty()) {
                throw new NoSuchObjectException(uri + ": " + dst + ": no such directory (several "
                        + "sources go into a directory)", ENOENT, 0);
            }
            throw new NotADirectoryException(uri + ": " + dst + " is not a directory (several "
                    + "sources go into a directory)", ENOTDIR, 0);
        }
        List<Step> steps = new ArrayList<>();
        for (Path src : sources) {
            Path name = src.toAbsolutePath().normalize().getFileName();
            if (into && name == null) {
                throw new IllegalArgumentException(src + " has no name to copy it under "
                        + dst);
            }
            String target = into ? child(dst, name) : dst;
            plan(d, src, target, into ? d.find(target) : at, steps);
        }
        return steps;
    }

    private void plan(SmartSsdDevice d, Path src, String target, Optional<ObjectStat> at,
                      List<Step> steps) throws IOException {
        if (!Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS)) {
            if (!Files.isRegularFile(src)) {
                throw new IllegalArgumentException(src + " is not a regular file or directory");
            }
            if (at.isPresent() && at.get().isDirectory()) {
                throw new SmartSsdException(uri + ": " + target + " is a directory; the "
                        + "file " + src + " cannot replace it", EISDIR, Reason.IS_DIR.code());
            }
            if (at.isPresent() && !force) {
                throw exists(target, null);
            }
            steps.add(new Step(src, target, false));
            return;
        }
        if (at.isPresent() && !at.get().isDirectory()) {
            throw new NotADirectoryException(uri + ": " + target + " exists and is not a "
                    + "directory; the directory " + src + " cannot go there", ENOTDIR, 0);
        }
        steps.add(new Step(src, target, true));
        List<Path> children;
        try (Stream<Path> list = Files.list(src)) {
            children = list.sorted().toList();
        }
        for (Path c : children) {
            String t = child(target, c.getFileName());
            plan(d, c, t, at.isPresent() ? d.find(t) : Optional.empty(), steps);
        }
    }

    private static String child(String dir, Path name) {
        return (dir.endsWith("/") ? dir : dir + "/") + name;
    }

    /**
     * The copy goes to a partial object beside PATH, which is renamed over PATH only once
     * every byte is on the drive: a failed put (drive full, link lost) leaves PATH as it
     * was, and removes the partial object, or leaves it under a name that says partial.
     */
    private void replaceAtomically(SmartSsdDevice d, FileChannel in, String path)
            throws IOException {
        String partial = partialName(path);
        long oid = d.create(partial, ObjectType.FILE, CreateOption.EXCLUSIVE,
                CreateOption.PARENTS);
        boolean renamed = false;
        try {
            long size = in.size();
            ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
            long off = 0;
            try (Progress bar = Progress.start("put " + path, size, "MiB", 1L << 20,
                    progress.mode(size, cli.errIsTerminal), cli.err)) {
                while (true) {
                    buf.clear();
                    int n = in.read(buf, off);
                    if (n <= 0) {
                        break;
                    }
                    buf.flip();
                    d.write(oid, off, buf, false, QUEUE_DEPTH);
                    off += n;
                    bar.stepBy(n);
                }
            }
            d.flush();
            try {
                d.rename(partial, path, !force);
            } catch (ObjectExistsException e) {
                throw exists(path, e);
            }
            renamed = true;
            d.flush();
        } finally {
            if (!renamed) {
                removeQuietly(d, partial);
            }
        }
    }

    private ObjectExistsException exists(String path, ObjectExistsException cause) {
        return new ObjectExistsException(uri + ": " + path + " already exists (use --force to "
                + "replace it)", cause == null ? EEXIST : cause.errno(), cause == null ? 0 : cause.reasonCode());
    }

    /** A hidden name beside PATH that says the object is an unfinished put. */
    static String partialName(String path) {
        int slash = path.lastIndexOf('/');
        return path.substring(0, slash + 1) + "." + path.substring(slash + 1) + ".partial-put-"
                + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
    }

    private static void removeQuietly(SmartSsdDevice d, String partial) {
        try {
            d.remove(partial, false);
        } catch (IOException e) {
            // the drive is gone or full: the name says what the object is
        }
    }
}
