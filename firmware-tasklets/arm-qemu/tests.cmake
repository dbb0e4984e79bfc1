# Included by firmware-tasklets/CMakeLists.txt on the host build: when Debian's
# gcc-arm-linux-gnueabi and qemu-user are installed, CTest builds arm-qemu/ for armel and
# runs its unit tests under qemu-arm (label "arm"); otherwise one test says what to install
# and reports itself skipped.
find_program(SS_ARM_GCC arm-linux-gnueabi-gcc)
find_program(SS_QEMU_ARM qemu-arm)
set(SS_ARM_DIR ${CMAKE_BINARY_DIR}/arm-qemu)
# The core layers' tests, one CTest each here, by the inner build's test names.
set(SS_ARM_SUITES
  "rt:^rt_ut$"
  "ftl:^ftl_"
  "buffer:^buffer_"
  "objstore:^objstore_"
  "isp:^isp_"
  "tasklets:^(group_agg|topn|filter|grep|dram_probe|pq_scan)_ut"
  "parquet:^pq_(thrift|snappy|rle|page)_ut$"
  "bpf:^bpf_.*_ut$")

if(SS_ARM_GCC AND SS_QEMU_ARM)
  message(STATUS "ARM tests under qemu: ${SS_ARM_GCC}, ${SS_QEMU_ARM}")
  add_test(NAME arm_qemu_build
    COMMAND ${CMAKE_COMMAND} -E env --unset=CFLAGS --unset=LDFLAGS
            sh -c "${CMAKE_COMMAND} -S '${CMAKE_CURRENT_LIST_DIR}' -B '${SS_ARM_DIR}' -DCMAKE_TOOLCHAIN_FILE='${CMAKE_CURRENT_LIST_DIR}/toolchain-armel.cmake' >/dev/null && ${CMAKE_COMMAND} --build '${SS_ARM_DIR}' -j2")
  set_tests_properties(arm_qemu_build PROPERTIES FIXTURES_SETUP ss_arm_build LABELS arm
    TIMEOUT 1200)
  foreach(suite ${SS_ARM_SUITES})
    string(REPLACE ":" ";" parts "${suite}")
    list(GET parts 0 layer)
    list(GET parts 1 regex)
    add_test(NAME arm_qemu_${layer}
      COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${SS_ARM_DIR} -R "${regex}" --output-on-failure
              --no-tests=error)
    # Fewer crash rounds than natively: every page of the emulated flash is emulated ARM work.
    set_tests_properties(arm_qemu_${layer} PROPERTIES FIXTURES_REQUIRED ss_arm_build
      LABELS arm TIMEOUT 1800 ENVIRONMENT "SS_CRASH_ITERATIONS=10")
  endforeach()
else()
  message(STATUS "ARM tests under qemu skipped: install gcc-arm-linux-gnueabi and qemu-user")
  add_test(NAME arm_qemu_skipped
    COMMAND sh -c "echo 'ARM tests under qemu skipped: apt-get install gcc-arm-linux-gnueabi qemu-user'; exit 77")
  set_tests_properties(arm_qemu_skipped PROPERTIES SKIP_RETURN_CODE 77 LABELS arm)
endif()
