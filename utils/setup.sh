#!/usr/bin/env bash
# Installs every Debian package birsim needs; does nothing when all are present.
# gcc provides `cc`, which docs/UsingBirsim.md's pkg-config recipe compiles
# with (Debian's clang-22 registers no `cc` alternative). libopenblas0-pthread
# is NumPy's BLAS for bench/python-bench.py's matmul peer.
#   --fresh-debian  also debootstrap (utils/fresh-debian.sh, run by CI)
#   --emulator  also the x86 emulator and boot tools of utils/avx512-emulated.sh
#   --aarch64   also the arm64 architecture, its cross toolchain, GoogleTest
#               and libLLVM (the oracle), and qemu-user (utils/test.sh
#               --aarch64)
#   --gcc       also g++ (GCC 12), which utils/test.sh --gcc builds the core
#               and the runtime with
set -euo pipefail
PKGS=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
      libclang-rt-22-dev gcc ninja-build cmake pkgconf libgtest-dev googletest
      libbenchmark-dev python3 python3-numpy python3-pytest python3-matplotlib
      python3-hypothesis python3-torch python3-mypy python3-pip python3-venv
      python3-setuptools libopenblas0-pthread)
case "${1:-}" in
  "") ;;
  --fresh-debian) PKGS+=(debootstrap) ;;
  --emulator)
    PKGS+=(bochs bochsbios vgabios isolinux syslinux-common xorriso
           busybox-static cpio) ;;
  --gcc) PKGS+=(g++) ;;
  --aarch64)
    PKGS+=(crossbuild-essential-arm64 libc6:arm64 libstdc++6:arm64
           libgtest-dev:arm64 libllvm22:arm64 qemu-user-static)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO dpkg --add-architecture arm64
    fi ;;
  *) echo "usage: $0 [--fresh-debian|--emulator|--aarch64|--gcc]" >&2; exit 2 ;;
esac
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "birsim setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
