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
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd put URI LOCAL PATH}: copy a local file onto the drive. */
@Command(name = "put", description = "Copy a local file onto the drive, creating missing parent "
        + "directories. Fails if PATH exists unless --force.")
final class PutCommand implements Callable<Integer> {
    static final int CHUNK = 1 << 20;

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

    @Option(names = "--progress", description = "show a progress bar even when stderr is not a "
            + "terminal")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(local)) {
            throw new java.nio.file.NoSuchFileException(local.toString(), null,
                    "no such local file");
        }
        try (SmartSsdDevice d = DeviceArgs.open(uri);
             FileChannel in = FileChannel.open(local, StandardOpenOption.READ)) {
            long size = in.size();
            long oid = create(d);
            ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
            long off = 0;
            try (CopyProgress bar = CopyProgress.start("put " + path, size, progress,
                    cli.errIsTerminal, cli.err)) {
                while (true) {
                    buf.clear();
                    int n = in.read(buf, off);
                    if (n <= 0) {
                        break;
                    }
                    buf.flip();
                    d.write(oid, off, buf, false);
                    off += n;
                    bar.advance(n);
                }
            }
            d.flush();
            return ExitCodes.OK;
        }
    }

    private long create(SmartSsdDevice d) throws IOException {
        try {
            return d.create(path, ObjectType.FILE, CreateOption.EXCLUSIVE, CreateOption.PARENTS);
        } catch (ObjectExistsException e) {
            if (!force) {
                throw new ObjectExistsException(e.getMessage() + "; use --force to replace it",
                        e.errno(), e.reasonCode());
            }
            long oid = d.lookup(path).oid();
            d.truncate(oid, 0);
            return oid;
        }
    }
}
