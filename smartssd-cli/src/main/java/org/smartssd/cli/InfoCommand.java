package org.smartssd.cli;

import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.smartssd.device.CacheCounters;
import org.smartssd.device.DriveCheck;
import org.smartssd.device.DriveCounters;
import org.smartssd.device.DriveInfo;
import org.smartssd.device.FsStat;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd info [--check] URI}: identity, space, FTL counters, the emulator's model,
 *  and with --check the object store's consistency check, data pages included. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Print the drive's identity, space, FTL counters, its solid-state "
        + "cache's counters and, for an emulated drive, its modelled time and energy.")
final class InfoCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Option(names = "--check", description = "also run the drive's object-store consistency "
            + "check (every extent tree against the records and the allocator, every data page "
            + "read against its flash CRC) and, with the merge cache, check its NVRAM (every "
            + "held sector against its CRC-32C), and print the verdict; exit 7 when it finds a "
            + "problem")
    boolean check;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            PrintStream o = cli.out;
            DriveInfo i = d.info();
            DriveCheck verdict = check ? d.check() : null;
            if (verdict != null && !verdict.storeMounted()) {
                // without its store the drive answers only who it is and the check
                o.printf("drive:            %s%n", uri);
                o.printf("model:            %s%n", i.model());
                o.printf("serial:           %s%n", i.serial());
                o.printf("check:            %s%n", verdict.verdict());
                return ExitCodes.INCONSISTENT;
            }
            FsStat s = d.fsStat();
            DriveCounters c = d.counters();
            Optional<ModelCounters> m = d.modelCounters();
            o.printf("drive:            %s%n", uri);
            o.printf("transport:        %s%n", i.transport());
            o.printf("model:            %s%n", i.model());
            o.printf("serial:           %s%n", i.serial());
            o.printf("firmware:         %s%n", i.firmwareRev());
            o.printf("protocol:         %d%n", i.protoVersion());
            o.printf("capacity:         %d bytes (%s)%n", i.capacityBytes(), Sizes.human(i.capacityBytes()));
            o.printf("geometry:         %d channels x %d ways, %d-byte pages%n", i.channels(),
                    i.ways(), i.pageSize());
            o.printf("queue depth:      %d%n", i.queueDepth());
            o.printf("isp batch:        %d pages%n", i.ispBatchPages());
            o.printf("isp queue:        %s%n", d.ispQueue().map(q -> q.instances() + " runs, "
                    + q.pagesRemaining() + " pages left" + (q.hasBacklogEstimate()
                    ? String.format(java.util.Locale.ROOT, ", %.6f s of ISP work (modelled)",
                            q.backlogNs() / 1e9) : "")).orElse("not reported by the drive"));
            o.printf("space:            %d of %d bytes free%n", s.freeBytes(), s.capacityBytes());
            o.printf("objects:          %d of %d%n", s.objects(), s.maxObjects());
            o.printf("host page reads:  %d%n", c.hostPageReads());
            o.printf("host page writes: %d%n", c.hostPageWrites());
            o.printf("nand page reads:  %d%n", c.nandPageReads());
            o.printf("nand page writes: %d%n", c.nandPageWrites());
            o.printf("block erases:     %d%n", c.blockErases());
            o.printf("gc page moves:    %d%n", c.gcPageMoves());
            o.printf("retired blocks:   %d%n", c.retiredBlocks());
            o.printf("free blocks:      %d%n", c.freeBlocks());
            o.printf("erase count:      min %d, avg %d, max %d%n", c.minEraseCount(),
                    c.avgEraseCount(), c.maxEraseCount());
            o.printf("write amp.:       %.3f%n", c.writeAmplificationMilli() / 1000.0);
            o.printf("power-on time:    %.6f s (modelled)%n", c.powerOnNs() / 1e9);
            o.printf("buffer:           %s, %d pages (%s)%s%n", bufferPolicy(c.bufferPolicy()),
                    c.bufferPages(), Sizes.human(c.bufferPages() * i.pageSize()),
                    c.bufferPolicy() == 5 ? (c.bufferThreshold() > 0 ? ", threshold "
                            + c.bufferThreshold() + ", block region " + c.bufferBlockRegionPages()
                            + " pages" : "") : "");
            o.printf("buffer hits:      read %.1f %% of %d pages, write %.1f %% of %d pages, "
                            + "%d merges%n", 100 * c.bufferReadHitRatio(), c.bufferReadPages(),
                    100 * c.bufferWriteHitRatio(), c.bufferWritePages(), c.bufferMerges());
            o.printf("buffer flushes:   %d pages, %d evictions, %d padding reads; by length "
                            + "1:%d 2:%d 3-4:%d 5-8:%d 9-16:%d 17-32:%d 33-64:%d 65+:%d%n",
                    c.bufferFlushedPages(), c.bufferEvictions(), c.bufferPaddingReads(),
                    c.bufferFlushes1(), c.bufferFlushes2(), c.bufferFlushes34(),
                    c.bufferFlushes58(), c.bufferFlushes916(), c.bufferFlushes1732(),
                    c.bufferFlushes3364(), c.bufferFlushes65());
            if (c.bufferIsMergeCache()) {
                o.printf("merge cache:      %d of %d sectors used, %d recovered at power-up; "
                                + "%d pages bypassed, %d read-cached, %d prefetched, %d ftl "
                                + "flushes%n", c.bufferNvSlotsUsed(), c.bufferNvSlots(),
                        c.bufferNvRecovered(), c.bufferNvBypassPages(), c.bufferNvReadCached(),
                        c.bufferNvPrefetched(), c.bufferNvFtlFlushes());
                o.printf("index cache:      %d hits, %d misses (hit ratio %.3f)%n",
                        c.bufferNvIndexHits(), c.bufferNvIndexMisses(),
                        c.bufferNvIndexHitRatio());
            }
            CacheCounters k = d.cacheCounters();
            if (k.blockSize() == 0) {
                o.printf("cache:            none (formatted with a cache share of 0)%n");
            } else {
                o.printf("cache:            %d.%d %% of the flash, %d blocks of %d bytes, %s%n",
                        k.sharePermille() / 10, k.sharePermille() % 10, k.capacityBlocks(),
                        k.blockSize(), k.policy() == 1 ? "SSC-V" : "SSC");
                o.printf("cache reads:      %d hits, %d misses since power-on (hit ratio "
                        + "%.3f)%n", k.hits(), k.misses(), k.hitRatio());
                o.printf("cache blocks:     %d cached, %d dirty%n", k.cachedBlocks(),
                        k.dirtyBlocks());
                o.printf("cache bad blocks: %d erase blocks left out (failed at format), "
                        + "%d retired worn out (endurance %d erases)%n",
                        k.badBlocks(), k.retiredBlocks(), k.endurance());
                o.printf("cache traffic:    %d bytes read as hits, %d filled (write-clean), "
                        + "%d written dirty since format%n",
                        k.hitBytes(), k.filledBytes(), k.dirtyWrittenBytes());
                o.printf("cache write-back: %d clean operations, %d bytes cleaned, %d blocks "
                        + "evicted since format%n",
                        k.cleanOps(), k.cleanedBytes(), k.evictedBlocks());
                o.printf("silent evictions: %d blocks (%d erase blocks) since power-on%n",
                        k.silentEvictedPages(), k.silentEvictedBlocks());
                o.printf("cache write amp.: %.3f (%d host, %d nand page writes since "
                        + "power-on)%n",
                        k.writeAmplification(), k.hostPageWrites(), k.nandPageWrites());
            }
            if (m.isPresent()) {
                ModelCounters x = m.get();
                o.printf("model time:       %.6f s%n", x.nowNs() / 1e9);
                o.printf("link bytes:       %d in, %d out%n", x.linkBytesIn(), x.linkBytesOut());
                o.printf("energy:           %.6f J (nand read %.6f, program %.6f, erase %.6f, "
                                + "link %.6f, isp %.6f, idle %.6f)%n",
                        x.energyTotalNj() / 1e9, x.energyNandReadNj() / 1e9,
                        x.energyNandProgramNj() / 1e9, x.energyNandEraseNj() / 1e9,
                        x.energyLinkNj() / 1e9, x.energyIspNj() / 1e9, x.energyIdleNj() / 1e9);
            }
            if (verdict != null) {
                o.printf("check:            %s%n", verdict.verdict());
                return verdict.consistent() ? ExitCodes.OK : ExitCodes.INCONSISTENT;
            }
            return ExitCodes.OK;
        }
    }

    /** The firmware's enum ss_buf_policy by number, the merge cache's read policy (enum
     *  ss_buf_nv_read) in the second byte. */
    static String bufferPolicy(long p) {
        String[] names = {"none", "lru", "fab", "bplru", "lbclock", "hbm", "nv-wb", "nv-sub",
            "nv-sat"};
        String[] reads = {"", "+cache", "+prefetch", "+both"};
        long policy = p & 0xff;
        long read = p >> 8;
        if (p < 0 || policy >= names.length || read >= reads.length) {
            return "policy " + p;
        }
        return names[(int) policy] + reads[(int) read];
    }
}
