#!/usr/bin/env bash
# Folding dense_resource weights: time and peak RSS of birsim-opt folding a
# birsim.cast (f32 -> bf16) and a birsim.bfp_pack (bfp8_b) of one 64 MiB f32
# resource, against birsim-opt only parsing and printing the same module.
# Folding may add at most the output's size plus 16 MiB (issue: no copy of a
# non-splat input). Modules are MLIR bytecode, as importers ship them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/bench/fold-resource
mkdir -p "$out"
opt=./build/bin/birsim-opt
TILES=16384 # 16384 x 32 x 32 fp32 = 64 MiB

gen() { # $1 = op text, $2 = result type, $3 = file
  python3 - "$1" "$2" "$TILES" > "$out/$3.mlir" <<'PY'
import random, sys
op, result, tiles = sys.argv[1], sys.argv[2], int(sys.argv[3])
random.seed(2026)
data = random.randbytes(tiles * 32 * 32 * 4)
sys.stdout.write(f"""func.func @f() -> {result} {{
  %w = arith.constant dense_resource<weights> : tensor<{tiles}x32x32xf32>
  {op}
  return %r : {result}
}}
{{-#
  dialect_resources: {{ builtin: {{ weights: "0x04000000{data.hex()}" }} }}
#-}}
""")
PY
  "$opt" "$out/$3.mlir" -emit-bytecode -o "$out/$3.mlirbc"
  rm "$out/$3.mlir"
}
gen "%r = birsim.cast %w : tensor<${TILES}x32x32xf32> to tensor<${TILES}x32x32xbf16>" \
    "tensor<${TILES}x32x32xbf16>" cast
gen "%r = birsim.bfp_pack bfp8_b %w : tensor<${TILES}x32x32xf32> -> tensor<${TILES}x1088xi8>" \
    "tensor<${TILES}x1088xi8>" pack

measure() { # prints "seconds peak-KiB"
  /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
}
printf "%-10s %10s %12s %12s %12s %10s\n" module "fold s" "fold MiB" "parse MiB" "added MiB" "limit MiB"
for m in cast pack; do
  output_mib=$([ $m = cast ] && echo 32 || echo $((TILES * 1088 / 1048576)))
  read -r _ base < <(measure "$opt" "$out/$m.mlirbc" -emit-bytecode -o /dev/null)
  read -r secs peak < <(measure "$opt" "$out/$m.mlirbc" -canonicalize -emit-bytecode -o /dev/null)
  if "$opt" "$out/$m.mlirbc" -canonicalize --mlir-elide-resource-strings-if-larger=64 |
      grep -q "birsim\."; then
    echo "$m: not folded"; exit 1
  fi
  added=$(( (peak - base) / 1024 ))
  limit=$(( output_mib + 16 ))
  printf "%-10s %10s %12d %12d %12d %10d %s\n" $m "$secs" $((peak / 1024)) $((base / 1024)) \
    $added $limit "$([ $added -le $limit ] && echo ok || echo OVER)"
done
