# The Jasmine board's feature set, sourced by cross/arm7tdmi.sh and openssd/build-with-sdk.sh
# so that the size check and the build against the real SDK compile the same firmware.
#
# Every layer and every built-in tasklet, with eight cuts that the 93,696 B of SRAM below the
# SDK's stacks force:
# - the DRAM buffer has only none and hbm (SS_BUF_BOARD): page LRU, FAB, BPLRU and LB-CLOCK
#   are the emulator's baselines for Gong's comparison, and the board has no non-volatile RAM
#   for the merge cache;
# - the solid-state cache's engine is left out (12.8 KB of Thumb code): ssc/ssc_absent.c
#   stands in, so that such a drive formats without a cache part and refuses to mount a flash
#   that has one, and the command layer's cache scan goes with the engine
#   (SS_FW_WITHOUT_SSC). SS_JASMINE_CACHE=1 puts the engine in, to measure it;
# - group-aggregate's batch fast path (SS_TASKLETS_NO_FAST_PATH): every record takes the
#   counted per-record path, which counts the same work (the fast path counts a batch at once
#   to save the emulator's host CPU).
# - group-aggregate's SUM of F32/F64 fields (SS_TASKLETS_NO_FLOAT): IEEE double addition on
#   the ARM7TDMI is libgcc's soft-float (1,160 B of Thumb code on 2026-11-29); such a SUM is refused at the
#   tasklet's init (-EINVAL) and the host sums those values itself. Comparisons, MIN and MAX
#   of floats stay: they use integer order keys.
# - the Parquet scan (SS_TASKLETS_NO_PARQUET): parquet/ (the page decoder, 5.1 KB of Thumb
#   code at -Os) is not in jasmine_modules and tasklets/pq_scan.c is not in the image (neither
#   would fit the board's free SRAM), nor the engine's ss_tasklet_page_origin and the
#   predicate trees' row sources that only it uses; the board's registry has no
#   parquet-scan, so a host's CREATE_OBJECT of it gets UNKNOWN_TASKLET and the host scans
#   the file itself.
# - eBPF tasklets (SS_FW_WITHOUT_BPF): bpf/ (the verifier, the interpreter, the "bpf"
#   tasklet kind) is not in jasmine_modules: its code alone is several times the bytes the
#   image has free, and the verifier's workspace is 80 KB. The command layer's opcode table
#   leaves TASKLET_LOAD, _LIST and _REMOVE out (answered BAD_OPCODE), registers no "bpf"
#   kind, and cmd/cmd_bpf.c is empty.
# - the open-channel and zoned interfaces (SS_FW_WITHOUT_CHUNKS): cmd/cmd_chunk.c and
#   cmd_chunk_ops.c compile to nothing and their opcodes are not in the board's table, so
#   the board answers them BAD_OPCODE and refuses to format with --interface (ENOSYS); a
#   flash formatted so elsewhere does not mount there (its FTL finds no checkpoint). The
#   board's ~100 B of free SRAM would not hold them.
# - the ISP core's shared modelled times (SS_ISP_NO_SHARE: isp/isp_share.c, 1.3 KB of Thumb
#   code on 2026-11-29): they share the emulator's model of the core between runs; the
#   board has its clock, no model, and reports a run's times as it ran, first come first
#   served.
#
# Needs: fw (firmware-tasklets/) and proto (protocol/) set by the caller.

jasmine_modules=(rt ftl buffer ssc objstore isp tasklets cmd)
# One host reaches the board (SG_IO), with no daemon: 16 sessions, not the emulator's 128.
jasmine_defines=(-DSS_BUF_BOARD -DSS_TASKLETS_NO_FAST_PATH -DSS_TASKLETS_NO_FLOAT
                 -DSS_TASKLETS_NO_PARQUET -DSS_ISP_NO_SHARE -DFW_MAX_SESSIONS=16u
                 -DSS_FW_WITHOUT_BPF -DSS_FW_WITHOUT_CHUNKS)
if [ "${SS_JASMINE_CACHE:-0}" != 1 ]; then
  jasmine_defines+=(-DSS_FW_WITHOUT_SSC)
fi
jasmine_includes=(-I"$fw/include" -I"$fw/hal/include" -I"$proto/include")
for m in "${jasmine_modules[@]}"; do jasmine_includes+=(-I"$fw/$m/include" -I"$fw/$m"); done

# jasmine_sources MODULE: the C files of MODULE that go into the image, one a line
jasmine_sources() {
  if [ "$1" = ssc ] && [ "${SS_JASMINE_CACHE:-0}" != 1 ]; then
    printf '%s\n' "$fw/ssc/ssc_part.c" "$fw/ssc/ssc_absent.c"
    return
  fi
  local src
  for src in "$fw/$1"/*.c; do
    # with the engine in, its stand-in goes
    [ "$src" = "$fw/ssc/ssc_absent.c" ] && continue
    # the Parquet scan is not in the board's build (SS_TASKLETS_NO_PARQUET)
    [ "$src" = "$fw/tasklets/pq_scan.c" ] && continue
    [ -e "$src" ] && printf '%s\n' "$src"
  done
  return 0
}

# Thumb code with interworking (the SDK is ARM code), for the size: -Os with link-time
# optimisation (5.0 KB smaller than -Os alone on 2026-11-27, 97,143 -> 92,105 B with the SDK)
jasmine_isa=(-mcpu=arm7tdmi-s -mthumb -mthumb-interwork)
jasmine_cflags=(-Os -flto -std=gnu11 -ffreestanding -fno-builtin -ffunction-sections
                -fdata-sections -Wall -Wno-unused-parameter)
jasmine_ldflags=(-Os -flto -flto-partition=none)
# The compiler's own memcpy/memset, which GCC may call for struct copies: compiled without
# -flto, so that the link-time code generation still finds them when it emits such a call.
jasmine_runtime_cflags=(-Os -fno-lto -ffreestanding)
