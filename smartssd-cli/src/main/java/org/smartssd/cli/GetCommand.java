package org.smartssd.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;

import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd get URI PATH LOCAL}: copy a file or tasklet output off the drive. */
@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Copy a file (or a tasklet's output object) from the drive "
        + "to LOCAL; '-' writes to stdout. Fails if LOCAL exists unless --force.")
final class GetCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Parameters(index = "1", paramLabel = "PATH", description = "absolute path on the drive")
    String path;

    @Parameters(index = "2", paramLabel = "LOCAL", description = "local file, or - for stdout")
    String local;

    @Option(names = {"-f", "--force"}, description = "replace LOCAL if it exists")
    boolean force;

    @Mixin
    CopyProgressOption progress;

    @Override
    public Integer call() throws Exception {
        boolean stdout = local.equals("-");
        Path target = stdout ? null : Path.of(local).toAbsolutePath();
        if (target != null) {
            checkTarget(target);
        }
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            ObjectStat st = d.lookup(path);
            if (st.isDirectory()) {
                throw new IllegalArgumentException(path + " is a directory; get copies files");
            }
            if (stdout) {
                try (OutputStream out = nonClosing(cli.out)) {
                    copy(d, st, out);
                }
            } else {
                copyAtomically(d, st, target);
            }
            return ExitCodes.OK;
        }
    }

    private void checkTarget(Path target) throws IOException {
        Path dir = target.getParent();
        if (Files.isDirectory(target)) {
            throw new IllegalArgumentException(local + " is a directory; name the file to "
                    + "write");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new java.nio.file.NoSuchFileException(String.valueOf(dir), null,
                    "no such directory");
        }
        if (!force && Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new java.nio.file.FileAlreadyExistsException(local, null,
                    "exists (use --force to replace it)");
        }
    }

    /** Into a temporary file beside LOCAL, moved over it once whole: a failed get leaves
     * LOCAL as it was and no partial file. */
    private void copyAtomically(SmartSsdDevice d, ObjectStat st, Path target) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(),
                ".partial-get");
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE)) {
                copy(d, st, out);
            }
            if (force) {
                Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } else {
                // a link fails if LOCAL appeared meanwhile: never replaced without --force
                try {
                    Files.createLink(target, tmp);
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    throw new java.nio.file.FileAlreadyExistsException(local, null,
                            "exists (use --force to replace it)");
                } catch (UnsupportedOperationException e) {
                    Files.move(tmp, target);   // no hard links here: checked, then moved
                }
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private void copy(SmartSsdDevice d, ObjectStat st, OutputStream out) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(PutCommand.CHUNK);
        byte[] heap = new byte[PutCommand.CHUNK];
        long off = 0;
        try (Progress bar = Progress.start("get " + path, st.size(), "MiB", 1L << 20,
                    progress.mode(st.size(), cli.errIsTerminal), cli.err)) {
            while (off < st.size()) {
                buf.clear();
                int n = d.read(st.oid(), off, buf);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                buf.get(heap, 0, n);
                out.write(heap, 0, n);
                off += n;
                bar.stepBy(n);
            }
        }
        out.flush();
        if (off != st.size()) {
            throw new IOException(uri + ": " + path + " ended after " + off + " of " + st.size()
                    + " bytes; the object changed while it was copied");
        }
    }

    private static OutputStream nonClosing(java.io.PrintStream ps) {
        return new java.io.FilterOutputStream(ps) {
            @Override
            public void write(byte[] b, int off, int len) {
                ps.write(b, off, len);
            }

            @Override
            public void close() {
                ps.flush();
            }
        };
    }
}
