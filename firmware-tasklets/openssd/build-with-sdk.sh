#!/usr/bin/env bash
# Builds the firmware for the OpenSSD Jasmine against the real Jasmine SDK, with the SDK's
# own GNU build (build_gnu/Makefile, its compiler flags and its linker script ld_script),
# and prints the whole image's size against the 93,696 B of SRAM below the SDK's stacks.
#
#   usage: build-with-sdk.sh SDK_DIR [OUT_DIR]
#     SDK_DIR  a checkout of the public openssd/jasmine repository, or its OpenSSD-1.1.0
#              directory (not vendored here: git clone https://github.com/openssd/jasmine)
#     OUT_DIR  where to build (default: a new temporary directory); the SDK checkout is
#              copied there and never written to
#   OPENSSD_SDK_DEFINES="NAME=VALUE ..." adds board defines to the shim's compile (e.g.
#   SS_OPENSSD_SDK_DRAM_BYTES, openssd/README.md).
#   The feature set is cross/jasmine-features.sh, the same as cross/arm7tdmi.sh's.
#   SS_JASMINE_CACHE=1 puts the solid-state cache's engine (ssc/) into the image too.
#   Measured on 2026-11-23 it did not fit (93,894 B, 198 B over), so the Jasmine build
#   leaves it out by default.
#   needs: arm-none-eabi-gcc (Debian: apt-get install gcc-arm-none-eabi), GNU make.
#
# Steps:
# 1. The SDK's own firmware, built by its Makefile (FTL=dummy: the SDK's minimal FTL, which
#    supplies the ftl_* entry points its SATA layer calls). The Makefile is written for
#    Windows (RM = del, a ';'-separated VPATH); those two variables are overridden on the
#    make command line, nothing else.
# 2. The firmware core (protocol and cross/jasmine-features.sh's modules) and the
#    board shim (openssd_hal.c, openssd_main.c), compiled as Thumb code with
#    interworking for the SDK's ARM7TDMI-S and link-time optimisation, against the SDK's
#    headers.
# 3. One image linked the SDK's way (its LDFLAGS and ld_script, -lgcc): the SDK's objects,
#    init.o first, then ours, with --gc-sections and the roots the board has: the SDK's
#    start-up code (init.o, which calls Main) and the shim's ss_openssd_main (what the SATA
#    glue calls; openssd/README.md), and with SS_JASMINE_CACHE=1 the solid-state cache's
#    operations. This is the image whose size must fit; cross/arm7tdmi.sh records its SDK
#    side, so that CI, which has no SDK, fails when this image would not fit.
# Exit status: 0 when the image fits, 1 when it does not, 2 on a usage or build error.
set -euo pipefail

die() {
  echo "build-with-sdk: $*" >&2
  exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: build-with-sdk.sh SDK_DIR [OUT_DIR]"
sdk=$1
if [ -d "$sdk/OpenSSD-1.1.0" ]; then
  sdk=$sdk/OpenSSD-1.1.0
fi
for f in build_gnu/Makefile build_gnu/ld_script include/jasmine.h target_spw/init_gnu.s \
         ftl_dummy/ftl.c; do
  [ -e "$sdk/$f" ] || die "$1 is not the Jasmine SDK: $f is missing (expected a checkout of openssd/jasmine or its OpenSSD-1.1.0 directory)"
done
prefix=${ARM_PREFIX:-arm-none-eabi-}
command -v "${prefix}gcc" >/dev/null ||
  die "${prefix}gcc not found: apt-get install gcc-arm-none-eabi"
command -v make >/dev/null || die "make not found: apt-get install make"

fw=$(cd "$(dirname "$0")/.." && pwd)
proto=$(cd "$fw/../protocol" && pwd)
out=${2:-$(mktemp -d /tmp/ss-jasmine.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
image_limit=93696

# 1. The SDK's own build, in a copy of the SDK.
rm -rf "$out/sdk"
cp -r "$sdk" "$out/sdk"
make -s -C "$out/sdk/build_gnu" FTL=dummy RM="rm -f" \
  VPATH="../ftl_dummy ../sata .. ../target_spw" firmware.elf >"$out/sdk-build.log" 2>&1 ||
  { tail -20 "$out/sdk-build.log" >&2; die "the SDK's own GNU build failed (log: $out/sdk-build.log)"; }
sdk_objs=(init.o ftl.o sata_identify.o sata_cmd.o sata_isr.o sata_main.o sata_table.o
          initialize.o mem_util.o flash.o flash_wrapper.o misc.o uart.o)

# 2. The firmware core and the shim.
mkdir -p "$out/obj"
# shellcheck source=../cross/jasmine-features.sh
. "$fw/cross/jasmine-features.sh"
includes=("${jasmine_includes[@]}" -I"$fw/openssd/include")
defines=()
for d in ${OPENSSD_SDK_DEFINES:-}; do defines+=(-D"$d"); done
ours=()
compile() {   # source, object name, extra flags...
  local src=$1 obj=$out/obj/$2
  shift 2
  "${prefix}gcc" "${jasmine_isa[@]}" "${jasmine_cflags[@]}" "${includes[@]}" "$@" -c "$src" \
    -o "$obj" ||
    die "compiling $src failed"
  ours+=("$obj")
}
for src in "$proto"/*.c; do compile "$src" "protocol_$(basename "${src%.c}").o"; done
for m in "${jasmine_modules[@]}"; do
  while read -r src; do
    compile "$src" "${m}_$(basename "${src%.c}").o" "${jasmine_defines[@]}"
  done < <(jasmine_sources "$m")
done
compile "$fw/cross/compiler_runtime.c" compiler_runtime.o "${jasmine_runtime_cflags[@]}"
# the shim sees the SDK's headers (jasmine.h pulls in the board's register map)
for src in "$fw/openssd"/openssd_hal.c "$fw/openssd"/openssd_main.c; do
  compile "$src" "openssd_$(basename "${src%.c}").o" -I"$sdk/include" -I"$sdk/target_spw" \
    -I"$sdk/ftl_dummy" "${jasmine_defines[@]}" "${defines[@]}"
done

# 3. One image, the SDK's way.
link() {   # output, extra linker flags...
  local elf=$1
  shift
  (cd "$out/sdk/build_gnu" &&
    "${prefix}gcc" "${jasmine_isa[@]}" "${jasmine_ldflags[@]}" -static -nostartfiles \
      -ffreestanding -T ld_script \
      -Wl,-O1,-Map="${elf%.elf}.map" "$@" "${sdk_objs[@]}" "${ours[@]}" -o "$elf" -lgcc) ||
    die "linking $elf failed"
}
roots=(disable_irq ss_openssd_main)
features="without the solid-state cache"
if [ "${SS_JASMINE_CACHE:-0}" = 1 ]; then
  features="with the solid-state cache"
  roots+=(ss_ssc_format ss_ssc_mount ss_ssc_unmount ss_ssc_write_dirty ss_ssc_write_clean
          ss_ssc_read ss_ssc_evict ss_ssc_clean ss_ssc_exists ss_ssc_flush ss_ssc_get_stats
          ss_ssc_part_format ss_ssc_part_read ss_ssc_part_views)
fi
gc=(-Wl,--gc-sections)
for r in "${roots[@]}"; do gc+=(-Wl,--require-defined="$r"); done
link "$out/smartssd-jasmine.elf" "${gc[@]}"
symbols=$("${prefix}nm" "$out/smartssd-jasmine.elf")
# (link-time optimisation inlines the firmware's entry points into the shim; the link
# itself fails when one is missing)
for sym in Main disable_irq ss_openssd_main; do
  grep -q " T $sym\$" <<<"$symbols" || die "$sym is missing from the linked image"
done
[ "$(grep " T disable_irq\$" <<<"$symbols" | cut -c1-8)" = 00000044 ] ||
  die "the SDK's start-up code (init.o, section INIT) is not at address 0"

sizes() { "${prefix}size" "$1" | awk 'NR==2 {print $1, $2, $3, $4}'; }
read -r text data bss image < <(sizes "$out/smartssd-jasmine.elf")
read -r stext sdata sbss simage < <(sizes "$out/sdk/build_gnu/firmware.elf")
echo "the SDK alone (its GNU build, FTL=dummy): text $stext B, data $sdata B, bss $sbss B = $simage B"
echo "SDK + shim + firmware core ($features), linked with the SDK's ld_script: text $text B, data $data B," \
     "bss $bss B = $image B of $image_limit B below the stacks ($((image_limit - image)) B free)"
echo "image: $out/smartssd-jasmine.elf (map: $out/smartssd-jasmine.map)"
if [ "$image" -gt "$image_limit" ]; then
  echo "FAIL: the image needs $image B; the Jasmine's SRAM holds $image_limit B below its stacks" >&2
  exit 1
fi
