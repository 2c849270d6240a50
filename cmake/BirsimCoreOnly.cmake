# The core-only build (BIRSIM_CORE_ONLY, top-level CMakeLists.txt): lib/Core,
# lib/Runtime and the core, SIMD and runtime unit tests, run by ctest (through
# CMAKE_CROSSCOMPILING_EMULATOR when cross-compiling).
set(BIRSIM_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(BIRSIM_BINARY_DIR ${PROJECT_BINARY_DIR})
set(BIRSIM_LLVM_INCLUDE_DIR "/usr/lib/llvm-22/include" CACHE PATH
    "LLVM headers for the APFloat oracle")
set(BIRSIM_ORACLE_LLVM_LIBRARY "" CACHE FILEPATH
    "libLLVM for the APFloat oracle (default: the LLVM 22 package's)")
if(NOT BIRSIM_ORACLE_LLVM_LIBRARY)
  find_package(LLVM REQUIRED CONFIG)
  set(BIRSIM_LLVM_INCLUDE_DIR ${LLVM_INCLUDE_DIRS})
  set(BIRSIM_ORACLE_LLVM_LIBRARY LLVM)
  link_directories(${LLVM_LIBRARY_DIR})
endif()

include(cmake/BirsimTargets.cmake)
add_subdirectory(lib/Core)
add_subdirectory(lib/Runtime)

enable_testing()
add_subdirectory(test/Unit/CoreOnly)
