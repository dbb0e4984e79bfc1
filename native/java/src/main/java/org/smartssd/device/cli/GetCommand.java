package org.smartssd.device.cli;

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
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd get URI PATH LOCAL}: copy a file or tasklet output off the drive. */
@Command(name = "get", description = "Copy a file (or a tasklet's output object) from the drive "
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

    @Option(names = "--progress", description = "show a progress bar even when stderr is not a "
            + "terminal")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            ObjectStat st = d.lookup(path);
            if (st.isDirectory()) {
                throw new IllegalArgumentException(path + " is a directory; get copies files");
            }
            boolean stdout = local.equals("-");
            try (OutputStream out = stdout ? nonClosing(cli.out) : open(Path.of(local))) {
                copy(d, st, out);
            }
            return ExitCodes.OK;
        }
    }

    private OutputStream open(Path p) throws IOException {
        return force ? Files.newOutputStream(p) : Files.newOutputStream(p,
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    private void copy(SmartSsdDevice d, ObjectStat st, OutputStream out) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(PutCommand.CHUNK);
        byte[] heap = new byte[PutCommand.CHUNK];
        long off = 0;
        try (CopyProgress bar = CopyProgress.start("get " + path, st.size(), progress,
                cli.errIsTerminal, cli.err)) {
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
                bar.advance(n);
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
