#!/usr/bin/env bash
# Configures (once) and builds birsim with Debian's LLVM/MLIR 22.
#   utils/build.sh             build/           (Release)
#   utils/build.sh --sanitize  build-sanitize/  (ASan + UBSan, -shared-libsan)
#   utils/build.sh --tsan      build-tsan/      (ThreadSanitizer)
set -euo pipefail
cd "$(dirname "$0")/.."
P=/usr/lib/llvm-22
dir=build
extra=()
case "${1:-}" in
  "") ;;
  --sanitize)
    dir=build-sanitize
    # LLVM's own switch (HandleLLVMOptions drops -z defs for it); one shared
    # sanitizer runtime for executables and libraries alike.
    # LLVM_UBSAN_FLAGS is set only inside LLVM's own build: give LLVM's values.
    extra=(-DLLVM_USE_SANITIZER="Address;Undefined"
           "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
           -DCMAKE_EXE_LINKER_FLAGS=-shared-libsan
           -DCMAKE_SHARED_LINKER_FLAGS=-shared-libsan
           -DCMAKE_MODULE_LINKER_FLAGS=-shared-libsan
           -DBIRSIM_SANITIZER=address) ;;
  --tsan)
    dir=build-tsan
    extra=(-DLLVM_USE_SANITIZER=Thread -DBIRSIM_SANITIZER=thread) ;;
  *) echo "usage: $0 [--sanitize|--tsan]" >&2; exit 2 ;;
esac
if [ ! -f "$dir/build.ninja" ]; then
  CC=$P/bin/clang CXX=$P/bin/clang++ cmake -G Ninja -S . -B "$dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=$P/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=$P/bin/lit "${extra[@]}"
fi
cmake --build "$dir"
