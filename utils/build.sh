#!/usr/bin/env bash
# Configures (once) and builds birsim in ./build with Debian's LLVM/MLIR 22.
set -euo pipefail
cd "$(dirname "$0")/.."
P=/usr/lib/llvm-22
if [ ! -f build/build.ninja ]; then
  CC=$P/bin/clang CXX=$P/bin/clang++ cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=$P/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=$P/bin/lit
fi
cmake --build build
