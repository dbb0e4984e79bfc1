#!/usr/bin/env bash
# Cross-compiles the firmware core for the OpenSSD Jasmine's ARM7TDMI-S and links it
# without any C library, which proves the core is freestanding: a stray libc call fails
# the link. Then checks that the whole image fits beside the SDK in the board's SRAM.
#
# The Jasmine SDK's scatter file ([Jasmine SDK, build_rvds/scatter.scl]: OpenSSD-1.1.0 in
# the public openssd/jasmine repository) loads code, read-only data, data and bss into one 96 KB
# region at address 0 and puts the IRQ, FIQ and system stacks (4.5 KB) at 93,696 B and up.
# So the firmware's text + rodata + data + bss plus the SDK's side (its SATA layer, flash and
# memory drivers, start-up, its dummy FTL, and the board shim) must fit in 93,696 B;
# [Saxena 2013, ch. 5] says as much ("requires a lean firmware image"). The DRAM side is
# checked by drive_jasmine_fit against the jasmine-openssd profile.
#
# Feature set and compiler flags: jasmine-features.sh, shared with openssd/build-with-sdk.sh,
# which links the same objects with the real SDK. Without the SDK at hand this check adds the
# SDK's side as that link measured it (below), so it fails when the real image would.
#   usage: arm7tdmi.sh OUT_DIR
set -euo pipefail
out=${1:?usage: arm7tdmi.sh OUT_DIR}
fw=$(cd "$(dirname "$0")/.." && pwd)
cc=${ARM_CC:-arm-none-eabi-gcc}
size=${ARM_SIZE:-arm-none-eabi-size}
sram_bytes=$((96 * 1024))
image_limit=93696
# The SDK's side of the real image: build-with-sdk.sh's whole image (91,707 B) less this
# script's image (74,452 B), 2026-11-27 (with ISP_QUEUE, ordered writes, and without
# group-aggregate's batch fast path), openssd/jasmine 8ce6802, arm-none-eabi-gcc 12.2.1.
# It is the SDK's own image with its dummy FTL (16,621 B, text 13,345 + data 1,616 + bss
# 1,660) plus the board shim, less what link-time optimisation merges across the two.
# Re-measure with openssd/build-with-sdk.sh whenever that link changes.
sdk_bytes=17255

mkdir -p "$out"
proto=$(cd "$fw/../protocol" && pwd)
# shellcheck source=jasmine-features.sh
. "$fw/cross/jasmine-features.sh"

objs=()
# the protocol's byte order and CRC-32C (protocol/) are part of the firmware image too
for src in "$proto"/*.c; do
  obj="$out/protocol_$(basename "${src%.c}").o"
  "$cc" "${jasmine_isa[@]}" "${jasmine_cflags[@]}" "${jasmine_includes[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
for m in "${jasmine_modules[@]}"; do
  while read -r src; do
    obj="$out/${m}_$(basename "${src%.c}").o"
    "$cc" "${jasmine_isa[@]}" "${jasmine_cflags[@]}" "${jasmine_defines[@]}" \
      "${jasmine_includes[@]}" -c "$src" -o "$obj"
    objs+=("$obj")
  done < <(jasmine_sources "$m")
done
"$cc" "${jasmine_isa[@]}" "${jasmine_runtime_cflags[@]}" -c "$fw/cross/compiler_runtime.c" \
  -I"$fw/rt/include" -I"$proto/include" -o "$out/compiler_runtime.o"
objs+=("$out/compiler_runtime.o")

# -lgcc is the compiler's own runtime (64-bit division on ARMv4T), not a C library.
"$cc" "${jasmine_isa[@]}" "${jasmine_ldflags[@]}" -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--entry=ss_fw_idle \
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

total=$((image + sdk_bytes))
echo "firmware for arm7tdmi (Thumb): text ${text} B, data ${data} B, bss ${bss} B, image ${image} B;" \
     "with the SDK's side, ${sdk_bytes} B: ${total} B of ${image_limit} B below the stacks" \
     "($((image_limit - total)) B free)"
if [ "$static" -gt "$sram_bytes" ]; then
  echo "FAIL: static firmware state (${static} B) does not fit the Jasmine's 96 KB SRAM" >&2
  exit 1
fi
if [ "$total" -gt "$image_limit" ]; then
  echo "FAIL: the firmware image (${image} B) and the SDK's side (${sdk_bytes} B) need ${total} B;" \
       "the Jasmine's SRAM holds ${image_limit} B below its stacks" >&2
  exit 1
fi
