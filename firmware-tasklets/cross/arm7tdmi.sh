#!/usr/bin/env bash
# Cross-compiles the firmware core for the OpenSSD Jasmine's ARM7TDMI-S and links it
# without any C library, which proves the core is freestanding: a stray libc call fails
# the link. Prints the text/data/bss sizes and checks that the statically allocated state
# fits the board's 96 KB SRAM (REFERENCES.md, "OpenSSD Jasmine"); the DRAM side is checked
# by cross_dram_fit_ut against the jasmine-openssd profile.
#   usage: arm7tdmi.sh OUT_DIR
set -euo pipefail
out=${1:?usage: arm7tdmi.sh OUT_DIR}
fw=$(cd "$(dirname "$0")/.." && pwd)
cc=${ARM_CC:-arm-none-eabi-gcc}
size=${ARM_SIZE:-arm-none-eabi-size}
sram_bytes=$((96 * 1024))

mkdir -p "$out"
modules=(rt ftl objstore isp tasklets cmd)
proto=$(cd "$fw/../protocol" && pwd)
includes=(-I"$fw/include" -I"$fw/hal/include" -I"$proto/include")
for m in "${modules[@]}"; do includes+=(-I"$fw/$m/include" -I"$fw/$m"); done

objs=()
# the protocol's byte order and CRC-32C (protocol/) are part of the firmware image too
for src in "$proto"/*.c; do
  obj="$out/protocol_$(basename "${src%.c}").o"
  "$cc" -mcpu=arm7tdmi -marm -Os -std=gnu11 -ffreestanding -fno-builtin -ffunction-sections \
    -fdata-sections -Wall -Wno-unused-parameter "${includes[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
for m in "${modules[@]}"; do
  for src in "$fw/$m"/*.c; do
    [ -e "$src" ] || continue
    obj="$out/${m}_$(basename "${src%.c}").o"
    "$cc" -mcpu=arm7tdmi -marm -Os -std=gnu11 -ffreestanding -fno-builtin -ffunction-sections \
      -fdata-sections -Wall -Wno-unused-parameter "${includes[@]}" -c "$src" -o "$obj"
    objs+=("$obj")
  done
done
"$cc" -mcpu=arm7tdmi -marm -Os -ffreestanding -c "$fw/cross/compiler_runtime.c" \
  -I"$fw/rt/include" -I"$proto/include" -o "$out/compiler_runtime.o"
objs+=("$out/compiler_runtime.o")

# -lgcc is the compiler's own runtime (64-bit division on ARMv4T), not a C library.
"$cc" -mcpu=arm7tdmi -marm -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--entry=ss_fw_idle \
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
read -r text data bss _ < <("$size" "$out/smartssd-fw.elf" | awk 'NR==2 {print $1, $2, $3}')
static=$((data + bss))
echo "firmware for arm7tdmi: text ${text} B, data ${data} B, bss ${bss} B; static state ${static} B of ${sram_bytes} B SRAM"
if [ "$static" -gt "$sram_bytes" ]; then
  echo "FAIL: static firmware state (${static} B) does not fit the Jasmine's 96 KB SRAM" >&2
  exit 1
fi
