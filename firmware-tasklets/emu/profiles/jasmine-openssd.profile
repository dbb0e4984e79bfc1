# Model profile: the OpenSSD Jasmine board (Indilinx Barefoot controller).
# Sources are cited as [Key, section, figure/table, page]; the keys are in docs/REFERENCES.md
# (Saxena 2013: the board, Table 4.2 "OpenSSD device configuration", p. 63; Bjørling 2015:
# its flash timing as a LightNVM target; Jasmine SDK; Gong 2010: HBM; Kang 2014).
# The hal page is the FTL's 32 KB virtual page (2 planes x 2 chips of 8 KB physical pages
# striped within a bank, [Saxena 2013, §4.4.2]) and a way is a bank.

name = jasmine-openssd                  # source: profile name used by the emulator
model = SMARTSSD EMU JASMINE-OPENSSD    # source: assumption, the IDENTIFY model string

# --- geometry ---
channels = 4                            # source: [Jasmine SDK, include/jasmine.h] NUM_CHNLS_MAX 4; [Saxena 2013, Table 4.2] 4 packages
ways = 8                                # source: [Jasmine SDK, include/jasmine.h] BANKS_PER_CHN_MAX 8; [Saxena 2013, Table 4.2] banks per package
page_size = 32768                       # source: [Saxena 2013, Table 4.2, p. 63] "Virtual Page 32 KB"
spare_size = 1792                       # source: derivation, 4 physical pages of 448 B spare ([Saxena 2013, Table 4.2]) per virtual page
pages_per_block = 128                   # source: [Saxena 2013, §4.4.2] "Erase blocks are 4 MB and composed of 128 contiguous virtual pages"
overprovision_permille = 70             # source: [Saxena 2013, Table 4.2, p. 63] "Overprovisioning 7%"
# source: derivation. The board holds up to 256 GB ([Saxena 2013, Table 4.2]); the default image is scaled
# down to 8 GiB raw: 8 GiB / (4 ch * 8 ways * 128 pages * 32 KiB) = 64 blocks per bank.
capacity_bytes = 8_589_934_592
endurance = 5000                        # source: assumption for MLC ([Saxena 2013, Table 4.2] "MLC"); [Bjørling 2015, §1.2] says "thousands" of erases per block
endurance_spread_permille = 100         # source: [Kang 2014, §7.4, p. 100], endurance variance assumed to stay within 10 %
factory_bad_permille = 10               # source: assumption, 1 % of MLC blocks bad from the factory, so the FTL's bad-block path runs
dram_bytes = 67_108_864                 # source: [Saxena 2013, Table 4.2, p. 63] "SDRAM 64 MB"
temperature_c = 40                      # source: assumption, a reported drive temperature

# --- NAND timing (per 2 x 8 KB access, [Bjørling 2015, ch. 6, §5]) ---
nand_read_ns = 250_000                  # source: [Bjørling 2015, ch. 6, §5] "Flash timings are 250us read"
nand_program_ns = 1_300_000             # source: [Bjørling 2015, ch. 6, §5] "1.3ms program"
nand_erase_ns = 1_500_000               # source: [Bjørling 2015, ch. 6, §5] "1.5ms ... erases"
# source: assumption. A 16-bit async channel ([Saxena 2013, Table 4.2]); 32e6 B/s per channel lets
# the 4 channels carry about the 125 MB/s read peak the board reaches ([Saxena 2013, §5.1, p. 84]).
channel_bytes_per_s = 32e6

# --- host link ---
link_bytes_per_s = 300e6                # source: SATA 3 Gb/s (SATA 2.0, [Bjørling 2015, ch. 6, §5]); 8b/10b leaves 300e6 B/s
link_cmd_overhead_ns = 20_000           # source: assumption, about 1750 cycles of the 87.5 MHz ARM7 ([Saxena 2013, Table 4.2]) per command
# --- ISP core: one ARM7TDMI-S at 87.5 MHz ([Saxena 2013, Table 4.2, p. 63]), no cache ---
isp_ns_per_instruction = 11.429         # source: derivation, 1 / 87.5 MHz = 11.4286 ns per instruction ([Saxena 2013, Table 4.2])
fw_page_overhead_ns = 11_429            # source: assumption, about 1000 firmware instructions per input page at 11.429 ns
dram_access_ns = 91                     # source: assumption, 8 core cycles (8 x 11.429 ns) per uncached SDRAM access ([Saxena 2013, Table 4.2])
isp_batch_pages = 32                    # source: derivation, 1 MiB per batch (32 x 32 KB) as Kang's 128 x 8 KB ([Kang 2014, §6.5.1])

# --- energy ---
# source: assumption. The sources give no MLC energy; HBM's SLC figures ([Gong 2010,
# Table 4.4, p. 57]: 2.0625 uJ read, 16.5 uJ program per 2 KB page, 123.75 uJ erase per
# 128 KB block, [Gong 2010, §4.2.2]) scaled per byte: x16 for a 32 KB page, x32 for a 4 MB block.
nand_read_nj = 33000
nand_program_nj = 264000
nand_erase_nj = 3_960_000
link_pj_per_byte = 500                  # source: assumption, as kang-smartssd (same SATA link)
isp_active_mw = 150                     # source: assumption, an ARM7 core at 87.5 MHz with its SDRAM traffic
device_idle_mw = 500                    # source: assumption, board idle with flash powered

# --- host power profile ---
host_idle_mw = 44_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83], Kang's host idle; the sources give no other host figure
host_busy_mw = 35_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83], Kang's host busy increment
host_cores = 4                          # source: [Bjørling 2015, ch. 6, §5] "quad-core Intel i7-4770"
