#!/usr/bin/env bash
# Runs the vector-path tests (BirsimSimdTests) on an emulated AVX-512 CPU, for
# hosts without one: Debian's Bochs as a Skylake-X (AVX-512 F/CD/BW/DQ/VL,
# F16C), booting Debian's cloud kernel with the statically linked tests as
# its only program, failing unless the best path found is avx512
# (BIRSIM_EXPECT_ISA). Two passes:
#   1. every test at the default suite's sizes, avx512 against avx2
#      (BIRSIM_REFERENCE_ISA=avx2);
#   2. every test but the bf16/fp16 pair sweep, avx2 and avx512 against the
#      portable path, with narrowed sweeps (BIRSIM_EMULATED_SWEEPS=1: the
#      emulated portable path is the slow part). Bochs 2.7's VCVTPS2PH
#      rounds ties away from zero instead of to even (docs/Testing.md),
#      so fp16 add, which narrows with it, cannot be compared with the
#      portable path there; pass 1 compares it with the AVX2 kernel, which
#      native runs compare with the portable path on every pair
#      (./utils/test.sh --long).
#   --long adds pass 3: the long sweeps (BIRSIM_LONG_TESTS=1: 10^8 random
#      fp32 pairs, 10^8 random casts under every FP8 config), avx512
#      against avx2 (which ./utils/test.sh --long compares with the portable
#      path on the same seeded values), but the bf16/fp16 pairs on a 1/16
#      sample (2^28 per dtype and op). About an hour and a half more.
#   --all-pairs [N] runs only the long mode's bf16/fp16 pair sweep, every
#      pair (2^32 per dtype and op), avx512 against avx2, its 65,536
#      partners split between N emulators run side by side (default: one per
#      CPU; BIRSIM_PAIR_PARTNERS gives each its share). 84 minutes on 2.
#   utils/avx512-emulated.sh [--long] [gtest filter]
#      (default: VectorPath.*:BfpLayout.*)
#   utils/avx512-emulated.sh --all-pairs [N]
# Takes 15-20 minutes here; the serial consoles are kept in
# build-emu/emu/<run>/serial.log. Not part of CI: ./utils/test.sh
# --avx512-emulated.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=default
emulators=1
case "${1:-}" in
  --long) mode=long; shift ;;
  --all-pairs)
    mode=all-pairs; shift
    emulators=$(nproc)
    if [[ "${1:-}" =~ ^[0-9]+$ ]]; then emulators=$1; shift; fi
    if [ "$emulators" -lt 1 ] || [ "$emulators" -gt 256 ] || [ $# != 0 ]; then
      echo "usage: $0 --all-pairs [N], 1 <= N <= 256 (no filter)" >&2; exit 2
    fi ;;
esac
filter="${1:-VectorPath.*:BfpLayout.*}"
./utils/setup.sh --emulator
P=/usr/lib/llvm-22
dir=build-emu
if [ ! -f "$dir/build.ninja" ]; then
  CC=$P/bin/clang CXX=$P/bin/clang++ cmake -G Ninja -S . -B "$dir" \
    -DCMAKE_BUILD_TYPE=Release -DMLIR_DIR=$P/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=$P/bin/lit -DBIRSIM_STATIC_SIMD_TESTS=ON >/dev/null
fi
cmake --build "$dir" --target BirsimSimdTests
emu="$dir/emu"
mkdir -p "$emu"

# The kernel: Debian's current cloud kernel package (small, with the 8250
# serial console and initramfs support built in), unpacked once.
if [ ! -f "$emu/vmlinuz" ]; then
  image=$(apt-cache depends linux-image-cloud-amd64 |
          sed -n 's/.*Depends: \(linux-image-[0-9].*-cloud-amd64\)$/\1/p' | head -1)
  rm -rf "$emu/deb" && mkdir -p "$emu/deb"
  (cd "$emu/deb" && apt-get download "$image" >/dev/null 2>&1 &&
   dpkg-deb -x ./*.deb unpacked)
  cp "$emu"/deb/unpacked/boot/vmlinuz-* "$emu/vmlinuz"
  rm -rf "$emu/deb"
fi

# The initramfs: busybox, the tests, and /init, which runs this mode's
# passes and powers off. Kernel arguments holding '=' reach /init as
# environment variables (BIRSIM_PAIR_PARTNERS).
root="$emu/root"
rm -rf "$root" && mkdir -p "$root/bin" "$root/proc" "$root/dev"
cp /bin/busybox "$root/bin/"
cp "$dir/test/Unit/BirsimSimdTests" "$root/bin/"
{
  cat <<'INIT'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t devtmpfs dev /dev
echo "birsim-emulated: cpu flags: $(/bin/busybox grep -o -E 'avx512[a-z]*|f16c' /proc/cpuinfo | /bin/busybox sort -u | /bin/busybox tr '\n' ' ')"
export BIRSIM_EXPECT_ISA=avx512 GTEST_COLOR=no
INIT
  if [ $mode = all-pairs ]; then
    cat <<'INIT'
echo "birsim-emulated: all pairs, partners $BIRSIM_PAIR_PARTNERS"
BIRSIM_LONG_TESTS=1 BIRSIM_REFERENCE_ISA=avx2 /bin/BirsimSimdTests --gtest_filter='VectorPath.BestPathIsTheExpectedOne:VectorPath.Bf16Fp16Pairs'
echo "birsim-emulated: all pairs, partners $BIRSIM_PAIR_PARTNERS (avx512 against avx2) exit status $?"
INIT
  else
    cat <<INIT
BIRSIM_REFERENCE_ISA=avx2 /bin/BirsimSimdTests --gtest_filter='$filter'
echo "birsim-emulated: pass 1 (avx512 against avx2) exit status \$?"
BIRSIM_EMULATED_SWEEPS=1 /bin/BirsimSimdTests --gtest_filter='$filter:-VectorPath.Bf16Fp16Pairs'
echo "birsim-emulated: pass 2 (against portable) exit status \$?"
INIT
  fi
  if [ $mode = long ]; then
    cat <<INIT
BIRSIM_LONG_TESTS=1 BIRSIM_EMULATED_SWEEPS=1 BIRSIM_REFERENCE_ISA=avx2 /bin/BirsimSimdTests --gtest_filter='$filter'
echo "birsim-emulated: pass 3 (long, avx512 against avx2) exit status \$?"
INIT
  fi
  echo '/bin/busybox poweroff -f'
} > "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$emu/initrd.gz"

# Boots one emulator in $emu/$1 with the extra kernel arguments $2, for at
# most $3 seconds; its serial console goes to $emu/$1/serial.log.
boot() {
  local run="$emu/$1"
  local iso="$run/iso"
  rm -rf "$run" && mkdir -p "$iso/isolinux"
  cp "$emu/initrd.gz" "$emu/vmlinuz" "$iso/"
  cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 \
    "$iso/isolinux/"
  # clearcpuid=321,323 (XSAVEC, XSAVES): Bochs 2.7 reports the standard
  # XSAVE size for the compacted format, and Linux would then turn off every
  # xstate feature (AVX and AVX-512 with them); the standard format is
  # consistent.
  cat > "$iso/isolinux/isolinux.cfg" <<CFG
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd.gz console=ttyS0,115200 quiet panic=-1 mitigations=off clearcpuid=321,323 $2
CFG
  xorriso -as mkisofs -quiet -o "$run/boot.iso" -b isolinux/isolinux.bin \
    -c isolinux/boot.cat -no-emul-boot -boot-load-size 4 -boot-info-table "$iso"
  cat > "$run/bochsrc" <<RC
display_library: rfb, options="timeout=0"
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
megs: 2048
cpu: model=corei7_skylake_x
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path=boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=serial.log
log: bochs.log
panic: action=fatal
error: action=ignore
info: action=ignore
debug: action=ignore
clock: sync=none, time0=local
# No sound: on a host without a sound card Debian's Bochs 2.7 aborts in its
# speaker's ALSA set-up ("buffer overflow detected").
speaker: enabled=0
sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
RC
  printf 'c\nquit\n' > "$run/debugger.rc" # Debian's Bochs starts in its debugger
  (cd "$run" && timeout "$3" bochs-bin -q -f bochsrc -rc debugger.rc \
     >bochs.out 2>&1 </dev/null) || true
}

start=$(date +%s)
runs=()
if [ $mode = all-pairs ]; then
  # Emulator i takes the partners of chunks [256 i / N, 256 (i + 1) / N)
  # (the sweep's chunks hold 256 partners each).
  for (( i = 0; i < emulators; ++i )); do
    runs+=("pairs-$i")
    boot "pairs-$i" "BIRSIM_PAIR_PARTNERS=$(( 256 * (256 * i / emulators) )):$((
      256 * (256 * (i + 1) / emulators) ))" 172800 &
  done
  wait
else
  runs=("$mode")
  boot "$mode" "" "$([ $mode = long ] && echo 28800 || echo 5400)"
fi
for run in "${runs[@]}"; do
  grep -a -E 'birsim-emulated|^\[' "$emu/$run/serial.log" |
    grep -a -v -E '^\[ *[0-9]+\.[0-9]+\]' || true
done
echo "birsim-emulated: $(( $(date +%s) - start )) s in the emulator"
passed() { grep -a -q "$2 exit status 0" "$emu/$1/serial.log"; }
case $mode in
  all-pairs)
    for run in "${runs[@]}"; do passed "$run" '(avx512 against avx2)' || exit 1; done ;;
  *)
    passed "$mode" 'pass 1 (avx512 against avx2)' &&
      passed "$mode" 'pass 2 (against portable)' &&
      { [ $mode = default ] || passed "$mode" 'pass 3 (long, avx512 against avx2)'; } ;;
esac
