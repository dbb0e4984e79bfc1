package org.smartssd.device.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;

import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SmartSsdDevice.CreateOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd put URI LOCAL PATH}: copy a local file onto the drive. */
@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Copy a local file onto the drive, creating missing parent "
        + "directories. Fails if PATH exists unless --force.")
final class PutCommand implements Callable<Integer> {
    /** WRITEs of 1 MiB in the drive at once: a chunk's pieces are queued. */
    static final int QUEUE_DEPTH = 4;
    static final int CHUNK = QUEUE_DEPTH << 20;
    private static final int EEXIST = 17;

    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Parameters(index = "1", paramLabel = "LOCAL", description = "local file to copy")
    Path local;

    @Parameters(index = "2", paramLabel = "PATH", description = "absolute path on the drive")
    String path;

    @Option(names = {"-f", "--force"}, description = "replace PATH if it exists")
    boolean force;

    @Mixin
    CopyProgressOption progress;

    @Override
    public Integer call() throws Exception {
        if (Files.isDirectory(local)) {
            throw new IllegalArgumentException(local + " is a directory; put copies one file");
        }
        if (!Files.exists(local)) {
            throw new java.nio.file.NoSuchFileException(local.toString(), null,
                    "no such local file");
        }
        if (!Files.isRegularFile(local)) {
            throw new IllegalArgumentException(local + " is not a regular file");
        }
        try (SmartSsdDevice d = DeviceArgs.open(uri);
             FileChannel in = FileChannel.open(local, StandardOpenOption.READ)) {
            if (!force && d.find(path).isPresent()) {
                throw exists(null);
            }
            replaceAtomically(d, in);
            return ExitCodes.OK;
        }
    }

    /**
     * The copy goes to a partial object beside PATH, which is renamed over PATH only once
     * every byte is on the drive: a failed put (drive full, link lost) leaves PATH as it
     * was, and removes the partial object, or leaves it under a name that says partial.
     */
    private void replaceAtomically(SmartSsdDevice d, FileChannel in) throws IOException {
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
                throw exists(e);
            }
            renamed = true;
            d.flush();
        } finally {
            if (!renamed) {
                removeQuietly(d, partial);
            }
        }
    }

    private ObjectExistsException exists(ObjectExistsException cause) {
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
