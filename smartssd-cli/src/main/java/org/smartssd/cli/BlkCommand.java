package org.smartssd.cli;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.smartssd.device.BlockTarget;
import org.smartssd.device.BlockTargetStats;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code smartssd blk read|write|trim|stats URI ...}: the host block target over an
 * open-channel drive (4 KiB blocks; native/include/smartssd/blk.h). Each command opens the
 * target (rebuilding its map after a crash), does its work and closes it, which makes the
 * work durable.
 */
@Command(name = "blk", mixinStandardHelpOptions = true,
        description = "Read, write and trim the 4 KiB blocks of the host block target over an "
        + "open-channel drive ('smartssd format --interface open-channel'), and print its "
        + "counters. Each command leaves what it did durable.",
        subcommands = {BlkCommand.Read.class, BlkCommand.Write.class, BlkCommand.Trim.class,
            BlkCommand.Stats.class})
final class BlkCommand implements Callable<Integer> {
    /** Blocks moved per call. */
    private static final int CHUNK_BLOCKS = 256;

    @ParentCommand
    SmartSsdCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "a subcommand is required: read, write, trim or stats");
    }

    /** {@code smartssd blk read URI LBA [--count N] [--output FILE]} */
    @Command(name = "read", mixinStandardHelpOptions = true,
            description = "Write blocks LBA.. to stdout or a file; blocks never written or "
            + "trimmed read as zeros.")
    static final class Read implements Callable<Integer> {
        @ParentCommand
        BlkCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Parameters(index = "1", paramLabel = "LBA", description = "the first block")
        long lba;

        @Option(names = "--count", description = "blocks to read (default 1)")
        long count = 1;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE",
                description = "write them to FILE rather than stdout")
        Path output;

        @Override
        public Integer call() throws Exception {
            if (count < 1) {
                throw new CommandLine.ParameterException(parent.spec.commandLine(),
                        "--count " + count + ": at least 1 block");
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK_BLOCKS * BlockTarget.BLOCK);
            byte[] bytes = new byte[buf.capacity()];
            try (SmartSsdDevice d = DeviceArgs.open(uri);
                    BlockTarget t = d.blockTarget(0, 0);
                    OutputStream file = output == null ? null : Files.newOutputStream(output)) {
                OutputStream to = file == null ? parent.cli.out : file;
                for (long done = 0; done < count;) {
                    int n = (int) Math.min(CHUNK_BLOCKS, count - done);
                    buf.clear();
                    t.read(lba + done, n, buf);
                    buf.get(0, bytes, 0, n * BlockTarget.BLOCK);
                    to.write(bytes, 0, n * BlockTarget.BLOCK);
                    done += n;
                }
            }
            parent.cli.out.flush();
            return ExitCodes.OK;
        }
    }

    /** {@code smartssd blk write URI LBA FILE [--fua]} */
    @Command(name = "write", mixinStandardHelpOptions = true,
            description = "Write FILE (whole 4 KiB blocks) at block LBA on.")
    static final class Write implements Callable<Integer> {
        @ParentCommand
        BlkCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Parameters(index = "1", paramLabel = "LBA", description = "the first block")
        long lba;

        @Parameters(index = "2", paramLabel = "FILE", description = "the data")
        Path file;

        @Override
        public Integer call() throws Exception {
            long size = Files.size(file);
            if (size == 0 || size % BlockTarget.BLOCK != 0) {
                throw new CommandLine.ParameterException(parent.spec.commandLine(),
                        file + " is " + size + " bytes: not a whole number of "
                        + BlockTarget.BLOCK + "-byte blocks");
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK_BLOCKS * BlockTarget.BLOCK);
            try (SmartSsdDevice d = DeviceArgs.open(uri);
                    BlockTarget t = d.blockTarget(0, 0);
                    FileChannel in = FileChannel.open(file)) {
                long at = lba;
                for (;;) {
                    buf.clear();
                    while (buf.hasRemaining() && in.read(buf) > 0) {
                        // fill the buffer
                    }
                    buf.flip();
                    if (!buf.hasRemaining()) {
                        break;
                    }
                    int n = buf.remaining() / BlockTarget.BLOCK;
                    t.write(at, buf, false);
                    at += n;
                }
            }
            parent.cli.out.printf("wrote %d blocks at %d%n", size / BlockTarget.BLOCK, lba);
            return ExitCodes.OK;
        }
    }

    /** {@code smartssd blk trim URI LBA COUNT} */
    @Command(name = "trim", mixinStandardHelpOptions = true,
            description = "Forget COUNT blocks from LBA on: they read as zeros.")
    static final class Trim implements Callable<Integer> {
        @ParentCommand
        BlkCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Parameters(index = "1", paramLabel = "LBA", description = "the first block")
        long lba;

        @Parameters(index = "2", paramLabel = "COUNT", description = "blocks")
        long count;

        @Override
        public Integer call() throws Exception {
            try (SmartSsdDevice d = DeviceArgs.open(uri);
                    BlockTarget t = d.blockTarget(0, 0)) {
                t.trim(lba, count);
            }
            parent.cli.out.printf("trimmed %d blocks at %d%n", count, lba);
            return ExitCodes.OK;
        }
    }

    /** {@code smartssd blk stats URI} */
    @Command(name = "stats", mixinStandardHelpOptions = true,
            description = "Print the target's shape, what its open recovered and its space.")
    static final class Stats implements Callable<Integer> {
        @ParentCommand
        BlkCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Override
        public Integer call() throws Exception {
            BlockTargetStats s;
            try (SmartSsdDevice d = DeviceArgs.open(uri);
                    BlockTarget t = d.blockTarget(0, 0)) {
                s = t.stats();
            }
            var o = parent.cli.out;
            o.printf("blocks: %d of %d bytes%n", s.blocks(), BlockTarget.BLOCK);
            o.printf("parallel units: %d%n", s.pus());
            o.printf("lines: %d of %d blocks (write unit %d blocks)%n", s.lines(),
                    s.lineBlocks(), s.unitBlocks());
            o.printf("host memory for the map: %d bytes%n", s.mapBytes());
            o.printf("valid blocks: %d%n", s.validBlocks());
            o.printf("free lines: %d%n", s.freeLines());
            o.printf("blocks recovered from OOB at open: %d%n", s.recoveredRecords());
            return ExitCodes.OK;
        }
    }
}
