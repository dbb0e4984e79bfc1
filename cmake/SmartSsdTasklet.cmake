# ss_add_tasklet(NAME SOURCES file.c [FLAGS clang-option...] [OUTPUT_DIR dir] [OBJECT file.o]):
# compile a restricted-C eBPF tasklet (docs/tasklets.md) with clang -O2 -target bpf into
# OUTPUT_DIR/OBJECT (default: NAME.o in the current binary directory), as target NAME. The header
# (tasklet/ss_tasklet_bpf.h) is found in this checkout. Needs SS_BPF_CLANG (found here as
# clang or clang-NN unless set) with the BPF target.
set(SS_TASKLET_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/../firmware-tasklets/bpf/include)
if(NOT SS_BPF_CLANG)
  find_program(SS_BPF_CLANG NAMES clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14)
endif()

function(ss_add_tasklet name)
  cmake_parse_arguments(T "" "OUTPUT_DIR;OBJECT" "SOURCES;FLAGS" ${ARGN})
  if(NOT SS_BPF_CLANG)
    message(FATAL_ERROR "ss_add_tasklet(${name}): no clang with the BPF target")
  endif()
  list(LENGTH T_SOURCES n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "ss_add_tasklet(${name}): one source file, not ${n}")
  endif()
  if(NOT T_OUTPUT_DIR)
    set(T_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  if(NOT T_OBJECT)
    set(T_OBJECT ${name}.o)
  endif()
  get_filename_component(src ${T_SOURCES} ABSOLUTE)
  set(o ${T_OUTPUT_DIR}/${T_OBJECT})
  add_custom_command(OUTPUT ${o}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${T_OUTPUT_DIR}
    COMMAND ${SS_BPF_CLANG} -O2 -target bpf ${T_FLAGS} -I${SS_TASKLET_INCLUDE} -c ${src} -o ${o}
    DEPENDS ${src} ${SS_TASKLET_INCLUDE}/tasklet/ss_tasklet_bpf.h
    COMMENT "clang -target bpf ${T_FLAGS} ${T_SOURCES}")
  add_custom_target(${name} DEPENDS ${o})
endfunction()
