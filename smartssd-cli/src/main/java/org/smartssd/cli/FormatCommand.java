package org.smartssd.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.smartssd.device.CacheCounters;
import org.smartssd.device.ChunkGeometry;
import org.smartssd.device.DriveCounters;
import org.smartssd.device.DriveInfo;
import org.smartssd.device.DriveInterface;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code smartssd format emu:/path/dev0.img [--force] [--profile NAME] [--capacity SIZE]
 * [--cache-share PCT] [--buffer POLICY] [--buffer-size SIZE] [--buffer-threshold N]
 * [--interface ftl|open-channel|zoned]}.
 */
@Command(name = "format", mixinStandardHelpOptions = true,
        description = "Create an emulated drive's image and format it. An existing file is "
        + "overwritten only when that loses nothing (an empty file, or an image holding no "
        + "object) or with --force. Only emu: URIs: a real drive is formatted by its vendor "
        + "tools.")
final class FormatCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "emu:/path/to/image")
    String uri;

    @Option(names = "--force", description = "format even a file that is not a drive image, "
            + "or an image whose drive holds objects, destroying what it holds")
    boolean force;

    @Option(names = "--profile", paramLabel = "NAME", description = "model profile: a built-in "
            + "name (kang-smartssd, the default; jasmine-openssd; nvme-modern) or a profile file")
    String profile;

    @Option(names = "--capacity", paramLabel = "SIZE", description = "raw flash size, e.g. 256M "
            + "or 16G (default: the profile's); rounded up to whole blocks")
    String capacity;

    @Option(names = "--max-objects", paramLabel = "N", description = "object table size "
            + "(default: the object store's)")
    int maxObjects;

    @Option(names = "--cache-share", paramLabel = "PCT", description = "percent of the flash "
            + "for the solid-state cache, 0 to 90; 0: none (default: 25 where the flash has "
            + "room for a cache part, else none)")
    Integer cacheShare;

    @Option(names = "--buffer", paramLabel = "POLICY", description = "the drive's DRAM buffer: "
            + "none, lru, fab, bplru, lbclock or hbm (default: hbm); or the non-volatile merge "
            + "cache nv-wb, nv-sub or nv-sat, optionally with a read policy +cache, +prefetch "
            + "or +both (e.g. nv-wb+both), whose writes are durable on return; every read and "
            + "write goes through it")
    String buffer;

    @Option(names = "--buffer-size", paramLabel = "SIZE", description = "its size, e.g. 4M "
            + "(default: 4 MiB, or two erase blocks where that is more)")
    String bufferSize;

    @Option(names = "--buffer-threshold", paramLabel = "PAGES", description = "hbm's migration "
            + "threshold (default: 0, the dynamic one)")
    int bufferThreshold;

    @Option(names = "--interface", paramLabel = "NAME", description = "ftl (the default): "
            + "the drive with its FTL, object store, tasklets and cache; open-channel or zoned: "
            + "the whole flash as chunks (zones) the host writes itself, at each one's write "
            + "pointer (see 'smartssd geometry' and 'smartssd chunks'); such a drive serves "
            + "block commands only")
    String driveInterface = "ftl";

    @Override
    public Integer call() throws Exception {
        DriveInterface iface = DriveInterface.ofWord(driveInterface);
        if (!uri.startsWith("emu:") || uri.length() == 4) {
            throw new IllegalArgumentException("format takes an emu: URI naming the image file, "
                    + "got '" + uri + "'");
        }
        Path image = Path.of(uri.substring(4));
        long bytes = capacity == null ? 0 : Sizes.parse(capacity);
        long bufferBytes = bufferSize == null ? 0 : Sizes.parse(bufferSize);
        SmartSsdDevice.formatEmulated(image, profile, bytes, maxObjects,
                cacheShare == null ? SmartSsdDevice.CACHE_SHARE_DEFAULT : cacheShare, buffer,
                bufferBytes, bufferThreshold, force, iface);
        if (iface != DriveInterface.FTL) {
            try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
                ChunkGeometry g = d.chunked().geometry();
                cli.out.printf("formatted %s: %s, %d groups x %d parallel units x %d chunks of "
                        + "%d sectors, %d offline%n", image, iface.word(), g.groups(), g.pus(),
                        g.chunks(), g.chunkSectors(), g.offlineChunks());
            }
            return ExitCodes.OK;
        }
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            DriveInfo i = d.info();
            DriveCounters c = d.counters();
            cli.out.printf("formatted %s: %s, %d bytes, %d channels x %d ways, %d-byte pages, "
                    + "buffer %s of %d pages%n", image, i.model(), i.capacityBytes(),
                    i.channels(), i.ways(), i.pageSize(), InfoCommand.bufferPolicy(c.bufferPolicy()),
                    c.bufferPages());
            CacheCounters cc = d.cacheCounters();
            cli.out.printf(cc.blockSize() == 0 ? "no solid-state cache%n"
                    : "solid-state cache: %d.%d %% of the flash, %d blocks of %d bytes%n",
                    cc.sharePermille() / 10, cc.sharePermille() % 10, cc.capacityBlocks(),
                    cc.blockSize());
        }
        return ExitCodes.OK;
    }
}
