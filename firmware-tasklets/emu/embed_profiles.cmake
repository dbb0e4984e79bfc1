# Turns profiles/*.profile into a C table of NUL-terminated strings, so the library needs
# no files at run time. Run as: cmake -DOUT=file.c -DPROFILES="a|b" -P embed_profiles.cmake
string(REPLACE "|" ";" PROFILES "${PROFILES}")
set(body "")
set(table "")
set(n 0)
foreach(f ${PROFILES})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND body "static const char profile_${n}[] = {${hex}0x00};\n")
  string(APPEND table "\t{ \"${name}\", profile_${n} },\n")
  math(EXPR n "${n} + 1")
endforeach()
file(WRITE ${OUT}.tmp "/* Generated from emu/profiles by embed_profiles.cmake: do not edit. */
#include <stddef.h>

struct emu_embedded_profile {
\tconst char *name;
\tconst char *text;
};

${body}
const struct emu_embedded_profile emu_embedded_profiles[] = {
${table}};
const size_t emu_embedded_profile_count = ${n};
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
