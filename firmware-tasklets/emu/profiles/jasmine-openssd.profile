# Model profile: the OpenSSD Jasmine board (Indilinx Barefoot controller).
# Seeds: seeds/000_409f7c2cd94ea619.txt (Saxena, OpenSSD table 4.2 at 000:955-962),
# seeds/002_ff183a5971cbf609.txt (Bjorling, OpenSSD setup at 002:1404-1406),
# seeds/001_78fa0a5ada144100.txt (Gong, HBM), seeds/003_0ae43b63c73d74f1.txt (Kang).
# The hal page is the FTL's 32 KB virtual page (2 planes x 2 chips of 8 KB physical pages
# striped within a bank, 000:966) and a way is a bank.

name = jasmine-openssd                  # source: profile name used by the emulator
model = SMARTSSD EMU JASMINE-OPENSSD    # source: assumption, the IDENTIFY model string

# --- geometry ---
channels = 4                            # source: DESIGN.md "4 channels x 8 banks"; 000:958 4 packages
ways = 8                                # source: DESIGN.md "4 channels x 8 banks"; 000:959-960 banks per package
page_size = 32768                       # source: 000:962 "Virtual Page 32 KB"
spare_size = 1792                       # source: derivation, 4 physical pages of 448 B spare (000:961) per virtual page
pages_per_block = 128                   # source: 000:966 "Erase blocks are 4 MB and composed of 128 contiguous virtual pages"
overprovision_permille = 70             # source: 000:957 "Overprovisioning 7%"
# source: derivation. The board holds up to 256 GB (000:957); the default image is scaled
# down to 8 GiB raw: 8 GiB / (4 ch * 8 ways * 128 pages * 32 KiB) = 64 blocks per bank.
capacity_bytes = 8_589_934_592
endurance = 5000                        # source: assumption for MLC (000:958 "MLC"); 002:101 says "thousands" of erases per block
endurance_spread_permille = 100         # source: 003:1277, endurance variance assumed to stay within 10 %
factory_bad_permille = 10               # source: assumption, 1 % of MLC blocks bad from the factory, so the FTL's bad-block path runs
dram_bytes = 67_108_864                 # source: 000:956 "SDRAM 64 MB"
temperature_c = 40                      # source: assumption, a reported drive temperature

# --- NAND timing (per 2 x 8 KB access, 002:1406) ---
nand_read_ns = 250_000                  # source: 002:1406 "Flash timings are 250us read"
nand_program_ns = 1_300_000             # source: 002:1406 "1.3ms program"
nand_erase_ns = 1_500_000               # source: 002:1406 "1.5ms ... erases"
# source: assumption. A 16-bit async channel (000:958, 000:960); 32e6 B/s per channel lets
# the 4 channels carry about the 125 MB/s read peak the board reaches (000:1222).
channel_bytes_per_s = 32e6

# --- host link ---
link_bytes_per_s = 300e6                # source: REFERENCES.md "SATA 3 Gb/s" (SATA 2.0, 002:1404); 8b/10b leaves 300e6 B/s
link_cmd_overhead_ns = 20_000           # source: assumption, about 1750 cycles of the 87.5 MHz ARM7 (000:955) per command
# --- ISP core: one ARM7TDMI-S at 87.5 MHz (000:955), no cache ---
isp_ns_per_instruction = 11.429         # source: derivation, 1 / 87.5 MHz = 11.4286 ns per instruction (000:955)
fw_page_overhead_ns = 11_429            # source: assumption, about 1000 firmware instructions per input page at 11.429 ns
dram_access_ns = 91                     # source: assumption, 8 core cycles (8 x 11.429 ns) per uncached SDRAM access (000:956)
isp_batch_pages = 32                    # source: derivation, 1 MiB per batch (32 x 32 KB) as Kang's 128 x 8 KB (003:993)

# --- energy ---
# source: assumption. The seeds give no MLC energy; HBM's SLC figures (001:738-747:
# 2.0625 uJ read, 16.5 uJ program per 2 KB page, 123.75 uJ erase per 128 KB block,
# 001:598) scaled per byte: x16 for a 32 KB page, x32 for a 4 MB block.
nand_read_nj = 33000
nand_program_nj = 264000
nand_erase_nj = 3_960_000
link_pj_per_byte = 500                  # source: assumption, as kang-smartssd (same SATA link)
isp_active_mw = 150                     # source: assumption, an ARM7 core at 87.5 MHz with its SDRAM traffic
device_idle_mw = 500                    # source: assumption, board idle with flash powered

# --- host power profile ---
host_idle_mw = 44_000                   # source: 003:1080, Kang's host idle; the seeds give no other host figure
host_busy_mw = 35_000                   # source: 003:1080, Kang's host busy increment
host_cores = 4                          # source: 002:1418 "quad-core Intel i7-4770"
