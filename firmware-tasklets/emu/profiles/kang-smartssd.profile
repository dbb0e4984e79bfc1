# Model profile: the Samsung-based Smart SSD of Kang 2014, ch. 6 (the default profile).
# Sources are cited as [Key, section, figure/table, page]; the keys are in docs/REFERENCES.md
# (Kang 2014: the drive; Gong 2010: HBM's flash timing and energy; Saxena 2013: OpenSSD).
# Units are in the key names; numbers may use '_' separators, a fraction or an exponent.

name = kang-smartssd                    # source: profile name used by the emulator
model = SMARTSSD EMU KANG-SMARTSSD      # source: assumption, the IDENTIFY model string

# --- geometry ---
channels = 16                           # source: [Kang 2014, §6.5.1] "16 I/O channels"
ways = 4                                # source: assumption; Kang gives only the channel count
page_size = 8192                        # source: [Kang 2014, §6.5.1] "SLC flash ... 8 KB page size"
spare_size = 448                        # source: assumption, the 8 KB page's spare of the OpenSSD flash ([Saxena 2013, Table 4.2, p. 63])
pages_per_block = 128                   # source: assumption, 128-page blocks as on OpenSSD ([Saxena 2013, §4.4.2]); also the tasklet batch ([Kang 2014, §6.5.1])
overprovision_permille = 70             # source: assumption, the 7 % of OpenSSD ([Saxena 2013, Table 4.2, p. 63]); Kang does not say
# source: derivation. The real drive holds 200 GB ([Kang 2014, §6.5.1]); the default image is scaled
# down to 16 GiB raw so the firmware's tables stay small (per-operation timing does not
# depend on capacity). 16 GiB / (16 ch * 4 ways * 128 pages * 8 KiB) = 256 blocks per die.
capacity_bytes = 17_179_869_184
endurance = 100_000                     # source: SLC P/E limit, [Gong 2010, §4.2.2, p. 42] ("maximum erase times of every block is 100000") and [Kang 2014, Table 2.1, p. 10] (10^5)
endurance_spread_permille = 100         # source: [Kang 2014, §7.4, p. 100], endurance variance assumed to stay within 10 %
factory_bad_permille = 0                # source: assumption, no factory bad blocks so runs repeat exactly
dram_bytes = 268_435_456                # source: assumption, 256 MiB; Kang does not give the DRAM size
temperature_c = 40                      # source: assumption, a reported drive temperature

# --- NAND timing: [Gong 2010, Table 4.2, p. 42] (SLC) ---
nand_read_ns = 25_000                   # source: [Gong 2010, Table 4.2] "Page Read to Register 25" us
nand_program_ns = 200_000               # source: [Gong 2010, Table 4.2] "Page Program (Write) from Register 200" us
nand_erase_ns = 1_500_000               # source: [Gong 2010, Table 4.2] "Block Erase 1500" us
# source: [Kang 2014, §6.5.2.1], internal read bandwidth is 2.5x the link by specification:
# 2.5 * 300e6 B/s = 750e6 B/s over 16 channels ([Kang 2014, §6.5.1]) = 46.875e6 B/s per channel.
channel_bytes_per_s = 46_875_000

# --- host link ---
link_bytes_per_s = 300e6                # source: [Kang 2014, §6.5.1] SATA 3 Gb/s; 8b/10b coding leaves 300e6 B/s
# source: derivation from [Kang 2014, §6.5.2.3, Fig. 6.7, p. 77], a one-sector read takes under 215 us. A one-sector read
# is tR 25000 + one 8 KB page (+448 B spare) over a channel 184320 + 512 B over the link
# 1707 = 211027 ns; 3900 ns of command overhead keeps it under 215 us.
link_cmd_overhead_ns = 3900

# --- ISP core ---
# source: derivation from [Kang 2014, §6.5.2.1], measured internal read is 1.8x the link = 540e6 B/s
# with firmware overhead, although the flash could do 2.5x: the ISP core is the
# bottleneck of a device scan at 8192 B / 540e6 B/s = 15170 ns per page.
fw_page_overhead_ns = 15170
# source: derivation from [Kang 2014, §6.5.2.2, Fig. 6.6, p. 74]: offload stops paying at about 128
# 4-byte accesses per 8 KB page. The host's per-page cost is the link time
# 8192 / 300e6 = 27307 ns; the device's is 15170 + n * dram_access_ns. They meet at n = 128
# when dram_access_ns = (27307 - 15170) / 128 = 95 ns.
dram_access_ns = 95
isp_ns_per_instruction = 2.5            # source: assumption, one instruction per cycle of a 400 MHz ARM core; Kang does not give the clock
isp_batch_pages = 128                   # source: [Kang 2014, §6.5.1] "fetch 128 pages at a time"

# --- energy ---
# source: [Gong 2010, Table 4.4, p. 57] for 2 KB SLC pages in 64-page blocks ([Gong 2010, §4.2.2]):
# read 2.0625 uJ/page, program 16.5 uJ/page, erase 123.75 uJ/block. Scaled per byte to
# 8 KB pages (x4) and 1 MiB blocks of 128 x 8 KB (x8).
nand_read_nj = 8250
nand_program_nj = 66000
nand_erase_nj = 990_000
link_pj_per_byte = 500                  # source: assumption, about 150 mW of SATA PHY and HBA activity at 300e6 B/s
isp_active_mw = 650                     # source: [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83], in-storage processing adds 0.5-0.8 W; the midpoint
device_idle_mw = 600                    # source: assumption, typical SATA SSD idle; part of Kang's 44 W system idle ([Kang 2014, §6.5.3.3])

# --- host power profile (used by the host-side energy accountant) ---
host_idle_mw = 44_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10] "the system consumes around 44 watts" idle
host_busy_mw = 35_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10] host versions add "around 35 watts"
host_cores = 4                          # source: [Kang 2014, §6.5.1] i5-2500 with 4 cores
