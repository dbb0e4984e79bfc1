# Model profile: a modern NVMe-class flash SSD (PCIe gen3 x4). Bjørling's thesis
# ([Bjørling 2015], docs/REFERENCES.md) gives the link and latency figures; the flash itself
# is described only in ranges there, so most flash numbers are stated assumptions.

name = nvme-modern                      # source: profile name used by the emulator
model = SMARTSSD EMU NVME-MODERN        # source: assumption, the IDENTIFY model string

# --- geometry ---
channels = 8                            # source: assumption; [Kang 2014, §6.1] modern SSDs have "8-16 (or more)" channels
ways = 8                                # source: assumption, 8 dies per channel
page_size = 16384                       # source: [Bjørling 2015, §1.2], page granularity "4KB-16KB"; the top of the range
spare_size = 2048                       # source: assumption, 1/8 of the page for ECC and metadata
pages_per_block = 256                   # source: [Bjørling 2015, ch. 2, §2.2], "64 to 256 pages per block"; the top of the range
overprovision_permille = 70             # source: assumption, 7 % as [Saxena 2013, §4.5.1]
# source: derivation, a 32 GiB default image: 32 GiB / (64 dies * 256 pages * 16 KiB) =
# 128 blocks per die.
capacity_bytes = 34_359_738_368
endurance = 3000                        # source: assumption; [Bjørling 2015, §1.2] flash supports "thousands" of erases per block
endurance_spread_permille = 100         # source: [Kang 2014, §7.4, p. 100], endurance variance assumed to stay within 10 %
factory_bad_permille = 0                # source: assumption, no factory bad blocks so runs repeat exactly
dram_bytes = 1_073_741_824              # source: assumption, 1 GiB, about 1 MB per GB of a 1 TB class drive
temperature_c = 45                      # source: assumption, a reported drive temperature

# --- NAND timing ---
nand_read_ns = 50_000                   # source: assumption; leaves room inside the 60 us NVMe NAND SSD read latency of [Bjørling 2015, ch. 4, Table 1]
nand_program_ns = 600_000               # source: assumption, multi-level cell program time
nand_erase_ns = 3_000_000               # source: assumption, multi-level cell erase time
channel_bytes_per_s = 800e6             # source: assumption, an 800 MT/s 8-bit flash channel

# --- host link ---
link_bytes_per_s = 4e9                  # source: [Bjørling 2015, §1.3], PCIe gen3 "1GB/s per lane"; 4 lanes assumed
link_cmd_overhead_ns = 1000             # source: [Bjørling 2015, §1.3] "PCI-e roundtrip is around 1us for a 4K I/O request"

# --- ISP core ---
isp_ns_per_instruction = 1.0            # source: assumption, a 1 GHz embedded core at one instruction per cycle
fw_page_overhead_ns = 2000              # source: assumption, about 2000 firmware instructions per 16 KB input page
dram_access_ns = 20                     # source: assumption, cached DRAM access averaged over a page scan
isp_batch_pages = 128                   # source: assumption, as Kang's batch ([Kang 2014, §6.5.1])

# --- energy ---
# source: assumption, HBM's SLC figures ([Gong 2010, Table 4.4, p. 57]; 2 KB pages, 128 KB
# blocks, [Gong 2010, §4.2.2])
# scaled per byte: x8 for a 16 KB page, x32 for a 4 MB block.
nand_read_nj = 16500
nand_program_nj = 132000
nand_erase_nj = 3_960_000
link_pj_per_byte = 50                   # source: assumption, about 6 pJ per bit on a PCIe gen3 link
isp_active_mw = 1500                    # source: assumption, a multi-core controller under load
device_idle_mw = 3000                   # source: assumption, NVMe active idle

# --- host power profile ---
host_idle_mw = 44_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83], Kang's host idle; the sources give no other host figure
host_busy_mw = 35_000                   # source: [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83], Kang's host busy increment
host_cores = 4                          # source: [Bjørling 2015, ch. 6, §5] "quad-core Intel i7-4770"
