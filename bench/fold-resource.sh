#!/usr/bin/env bash
# Folding dense_resource weights: time and peak RSS of birsim-opt folding a
# birsim.cast (f32 -> bf16), the same cast as an importer writes it (a
# linalg.generic truncf, through convert-to-birsim), and a birsim.bfp_pack
# (bfp8_b) of one 64 MiB f32 resource, and a birsim.bfp_pack_matrix (bfp8_b, 32x32 tiles) of a 1 GiB
# bf16 weight, against birsim-opt only parsing and printing the same module.
# Folding may add at most the output's size plus 16 MiB (no copy of a
# non-splat input) and take at most 1.5x the parse-and-print time for the
# 1 GiB weight. Modules are MLIR bytecode, as importers ship them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench/fold-resource
mkdir -p "$out"
opt=./build/bin/birsim-opt
TILES=16384 # 16384 x 32 x 32 fp32 = 64 MiB

gen() { # $1 = op text, $2 = result type, $3 = file, $4 = weight type, $5 = bytes
  python3 - "$1" "$2" "$4" "$5" > "$out/$3.mlir" <<'PY'
import random, sys
op, result, weight, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
random.seed(2026)
sys.stdout.write(f"""func.func @f() -> {result} {{
  %w = arith.constant dense_resource<weights> : {weight}
  {op}
  return %r : {result}
}}
{{-#
  dialect_resources: {{ builtin: {{ weights: "0x04000000""")
chunk = 1 << 24
for _ in range(size // chunk):
    sys.stdout.write(random.randbytes(chunk).hex())
sys.stdout.write(random.randbytes(size % chunk).hex())
sys.stdout.write('" } }\n#-}\n')
PY
  "$opt" "$out/$3.mlir" -emit-bytecode -o "$out/$3.mlirbc"
  rm "$out/$3.mlir"
}
f32="tensor<${TILES}x32x32xf32>"
gen "%r = birsim.cast %w : $f32 to tensor<${TILES}x32x32xbf16>" \
    "tensor<${TILES}x32x32xbf16>" cast "$f32" $((TILES * 4096))
gen "%r = birsim.bfp_pack bfp8_b %w : $f32 -> tensor<${TILES}x1088xi8>" \
    "tensor<${TILES}x1088xi8>" pack "$f32" $((TILES * 4096))
# An importer's form of the cast: linalg.generic truncf, through
# convert-to-birsim (docs/Conversions.md) and then canonicalize.
gen "%e = tensor.empty() : tensor<${TILES}x32x32xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%w : $f32) outs(%e : tensor<${TILES}x32x32xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<${TILES}x32x32xbf16>" "tensor<${TILES}x32x32xbf16>" linalg "$f32" $((TILES * 4096))
# 1 GiB of bf16: 16384 x 32768 values, 524288 tiles of 32x32; kept between
# runs, rewritten when birsim-opt is newer (bytecode holds the ops' properties).
[ "$out/matrix.mlirbc" -nt "$opt" ] ||
  gen "%r = birsim.bfp_pack_matrix bfp8_b %w tile [32, 32] : tensor<16384x32768xbf16> -> tensor<524288x1088xi8>" \
      "tensor<524288x1088xi8>" matrix "tensor<16384x32768xbf16>" $((1 << 30))

measure() { # prints "seconds peak-KiB"
  /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
}
printf "%-10s %8s %8s %10s %10s %10s %10s\n" module "fold s" "parse s" "fold MiB" \
  "parse MiB" "added MiB" "limit MiB"
for m in cast linalg pack matrix; do
  passes=(-canonicalize)
  [ $m = linalg ] && passes=(--convert-to-birsim -canonicalize)
  case $m in
    cast|linalg) output_mib=32 ;;
    pack) output_mib=$((TILES * 1088 / 1048576)) ;;
    matrix) output_mib=$((524288 * 1088 / 1048576)) ;;
  esac
  read -r base_secs base < <(measure "$opt" "$out/$m.mlirbc" -emit-bytecode -o /dev/null)
  read -r secs peak < <(measure "$opt" "$out/$m.mlirbc" "${passes[@]}" -emit-bytecode -o /dev/null)
  if "$opt" "$out/$m.mlirbc" "${passes[@]}" --mlir-elide-resource-strings-if-larger=64 |
      grep -q "birsim\.\|linalg\."; then
    echo "$m: not folded"; exit 1
  fi
  added=$(( (peak - base) / 1024 ))
  limit=$(( output_mib + 16 ))
  verdict=$([ $added -le $limit ] && echo ok || echo OVER)
  if [ $m = matrix ]; then
    verdict="$verdict, time $(python3 -c "print(f'{$secs / $base_secs:.2f}x')") of parse+print (<= 1.5x)"
  fi
  printf "%-10s %8s %8s %10d %10d %10d %10d %s\n" $m "$secs" "$base_secs" $((peak / 1024)) \
    $((base / 1024)) $added $limit "$verdict"
done
