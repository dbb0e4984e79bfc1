#!/usr/bin/env bash
# Cross-compiles the firmware core for the OpenSSD Jasmine's ARM7TDMI-S and links it
# without any C library, which proves the core is freestanding: a stray libc call fails
# the link. Then checks that the whole image fits beside the SDK in the board's SRAM.
#
# The Jasmine SDK's scatter file ([Jasmine SDK, build_rvds/scatter.scl]: OpenSSD-1.1.0 in
# the public openssd/jasmine repository) loads code, read-only data, data and bss into one 96 KB
# region at address 0 and puts the IRQ, FIQ and system stacks (4.5 KB) at 93,696 B and up.
# So the firmware's text + rodata + data + bss plus the SDK's own code (its SATA layer,
# flash and memory drivers, start-up; the SDK's ftl.c is what this firmware replaces) must
# fit in 93,696 B; [Saxena 2013, ch. 5] says as much ("requires a lean firmware
# image"). The DRAM side is checked by drive_jasmine_fit against the jasmine-openssd
# profile.
#
# Feature set: every layer and every built-in tasklet except the solid-state cache's engine
# (ssc/ssc_absent.c stands in: such a drive formats without a cache part and refuses to
# mount a flash that has one), compiled as Thumb code (with ARM interworking, as the SDK
# is ARM code). The cache's engine is 12.8 KB of Thumb code; with it the image is 2.1 KB
# over (2026-11-23), before the DRAM buffer. In ARM state the image is 84.7 KB and does not
# fit beside the SDK's 14.5 KB; in Thumb it is 59.5 KB (2026-11-23).
#   usage: arm7tdmi.sh OUT_DIR
#   OPENSSD_SDK=DIR (the OpenSSD-1.1.0 directory) measures the SDK's code instead of using
#   the figure recorded below.
set -euo pipefail
out=${1:?usage: arm7tdmi.sh OUT_DIR}
fw=$(cd "$(dirname "$0")/.." && pwd)
cc=${ARM_CC:-arm-none-eabi-gcc}
size=${ARM_SIZE:-arm-none-eabi-size}
sram_bytes=$((96 * 1024))
image_limit=93696
isa=(-mcpu=arm7tdmi -mthumb -mthumb-interwork)
# the board's buffer has none and hbm: page LRU, FAB, BPLRU and LB-CLOCK are the emulator's
# baselines for Gong's comparison, and the image would not fit the SRAM with them
# SS_FW_WITHOUT_SSC: the command layer's cache scan (cmd_ssc_scan.c) goes with the engine
board=(-DSS_BUF_BOARD -DSS_FW_WITHOUT_SSC)
# The SDK's own code, measured with its GNU build's flags (build_gnu/Makefile: -O2
# -mcpu=arm7tdmi-s -mthumb-interwork, arm-none-eabi-gcc 12.2) on openssd/jasmine commit
# 8ce6802: sata_{identify,cmd,isr,main,table}.c, initialize.c, mem_util.c, flash.c,
# flash_wrapper.c, misc.c, uart.c (text 12,125 + data 544 + bss 1,652) and init_gnu.s
# (INIT 200).
sdk_bytes=14521

mkdir -p "$out"
modules=(rt ftl buffer ssc objstore isp tasklets cmd)
proto=$(cd "$fw/../protocol" && pwd)
includes=(-I"$fw/include" -I"$fw/hal/include" -I"$proto/include")
for m in "${modules[@]}"; do includes+=(-I"$fw/$m/include" -I"$fw/$m"); done

objs=()
# the protocol's byte order and CRC-32C (protocol/) are part of the firmware image too
for src in "$proto"/*.c; do
  obj="$out/protocol_$(basename "${src%.c}").o"
  "$cc" "${isa[@]}" -Os -std=gnu11 -ffreestanding -fno-builtin -ffunction-sections \
    -fdata-sections -Wall -Wno-unused-parameter "${includes[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
for m in "${modules[@]}"; do
  sources=("$fw/$m"/*.c)
  if [ "$m" = ssc ]; then
    # no room for the cache engine: its partition label only (see ssc/ssc_absent.c)
    sources=("$fw/ssc/ssc_part.c" "$fw/ssc/ssc_absent.c")
  fi
  for src in "${sources[@]}"; do
    [ -e "$src" ] || continue
    obj="$out/${m}_$(basename "${src%.c}").o"
    "$cc" "${isa[@]}" -Os -std=gnu11 -ffreestanding -fno-builtin -ffunction-sections \
      -fdata-sections -Wall -Wno-unused-parameter "${board[@]}" "${includes[@]}" -c "$src" \
      -o "$obj"
    objs+=("$obj")
  done
done
"$cc" "${isa[@]}" -Os -ffreestanding -c "$fw/cross/compiler_runtime.c" \
  -I"$fw/rt/include" -I"$proto/include" -o "$out/compiler_runtime.o"
objs+=("$out/compiler_runtime.o")

# -lgcc is the compiler's own runtime (64-bit division on ARMv4T), not a C library.
"$cc" "${isa[@]}" -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--entry=ss_fw_idle \
  -Wl,-u,ss_fw_format -Wl,-u,ss_fw_mount -Wl,-u,ss_fw_ata_command -Wl,-u,ss_fw_shutdown \
  -o "$out/smartssd-fw.elf" "${objs[@]}" -lgcc

nm=${ARM_NM:-arm-none-eabi-nm}
symbols=$("$nm" "$out/smartssd-fw.elf")
for sym in ss_fw_format ss_fw_mount ss_fw_ata_command ss_fw_idle ss_fw_shutdown; do
  if ! grep -q " T $sym\$" <<<"$symbols"; then
    echo "FAIL: firmware entry point $sym is missing from the ARM image" >&2
    exit 1
  fi
done

"$size" "$out/smartssd-fw.elf"
# Berkeley size: text (code, rodata, exception tables), data, bss; dec is their sum, the
# whole image as loaded into SRAM.
read -r text data bss image < <("$size" "$out/smartssd-fw.elf" | awk 'NR==2 {print $1, $2, $3, $4}')
static=$((data + bss))

if [ -n "${OPENSSD_SDK:-}" ]; then
  sdk=$OPENSSD_SDK
  sdk_objs=()
  for src in sata/sata_identify.c sata/sata_cmd.c sata/sata_isr.c sata/sata_main.c \
             sata/sata_table.c target_spw/initialize.c target_spw/mem_util.c target_spw/flash.c \
             target_spw/flash_wrapper.c target_spw/misc.c target_spw/uart.c; do
    obj="$out/sdk_$(basename "${src%.c}").o"
    "$cc" -mcpu=arm7tdmi-s -mthumb-interwork -ffreestanding -nostdlib -std=c99 -O2 \
      -DPROGRAM_MAIN_FW -I"$sdk/include" -I"$sdk/ftl_dummy" -I"$sdk/sata" -I"$sdk/target_spw" \
      -c "$sdk/$src" -o "$obj"
    sdk_objs+=("$obj")
  done
  "${cc%gcc}as" -mcpu=arm7tdmi-s "$sdk/target_spw/init_gnu.s" -o "$out/sdk_init.o"
  sdk_code=$("$size" -t "${sdk_objs[@]}" | awk 'END {print $4}')
  sdk_init=$("$size" -A "$out/sdk_init.o" | awk '$1 == "INIT" {print $2}')
  sdk_bytes=$((sdk_code + ${sdk_init:-0}))
  echo "the SDK's own code, measured in $sdk: ${sdk_bytes} B"
fi

total=$((image + sdk_bytes))
echo "firmware for arm7tdmi (Thumb): text ${text} B, data ${data} B, bss ${bss} B, image ${image} B;" \
     "with the SDK's ${sdk_bytes} B: ${total} B of ${image_limit} B below the stacks" \
     "($((image_limit - total)) B free)"
if [ "$static" -gt "$sram_bytes" ]; then
  echo "FAIL: static firmware state (${static} B) does not fit the Jasmine's 96 KB SRAM" >&2
  exit 1
fi
if [ "$total" -gt "$image_limit" ]; then
  echo "FAIL: the firmware image (${image} B) and the SDK's code (${sdk_bytes} B) need ${total} B;" \
       "the Jasmine's SRAM holds ${image_limit} B below its stacks" >&2
  exit 1
fi
