# Debian's armel cross compiler (gcc-arm-linux-gnueabi): 32-bit, little-endian, soft float,
# ARMv5TE, the nearest Debian target to the Jasmine's ARM7TDMI (ARMv4T). No unaligned
# access in hardware, 32-bit pointers and size_t: what x86-64 hides.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabi-gcc)
set(CMAKE_C_FLAGS_INIT "-march=armv5te -marm")
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabi)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# qemu-arm runs each test; -L points it at the armel loader and libc.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm -L /usr/arm-linux-gnueabi)
