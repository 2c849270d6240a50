# Cross-compiles the core-only build for aarch64 with clang-22 and lld
# against Debian's arm64 multiarch packages; tests run under qemu-user
# (utils/test.sh --aarch64; utils/setup.sh --aarch64 installs the packages).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(triple aarch64-linux-gnu)
set(CMAKE_C_COMPILER /usr/lib/llvm-22/bin/clang)
set(CMAKE_CXX_COMPILER /usr/lib/llvm-22/bin/clang++)
set(CMAKE_C_COMPILER_TARGET ${triple})
set(CMAKE_CXX_COMPILER_TARGET ${triple})
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")
# Debian's multiarch layout: arm64 libraries in /usr/lib/aarch64-linux-gnu,
# headers shared in /usr/include.
set(CMAKE_FIND_ROOT_PATH /usr/${triple} /usr/lib/${triple})
set(CMAKE_LIBRARY_ARCHITECTURE ${triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# The arm64 multiarch glibc (/lib/ld-linux-aarch64.so.1): with the cross
# sysroot's loader (-L /usr/aarch64-linux-gnu) qemu-user 7.2 hangs in the
# first thread the program starts.
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/qemu-aarch64-static -L /)
set(BIRSIM_ORACLE_LLVM_LIBRARY /usr/lib/${triple}/libLLVM.so.22.1 CACHE FILEPATH "")
