#!/usr/bin/env python3
"""Writes one fidelity workload in two forms with the same seeded values:

  gen-fidelity.py RUNTIME constants   every op on arith.constant operands
                              (for `birsim-opt --birsim-fidelity`)
  gen-fidelity.py RUNTIME arguments   the same ops in @kernel on function
                              arguments, called from @main with those
                              constants (they execute at run time; for the
                              lowered counters)

Ops: fp8 reduce add on every fp8 reducing type, casts from f32 under every
FP8 config to every one-byte float and to bf16/f16/i8, a cast from bf16, BFP
pack in every format, Tensix mul and matmul below HiFi4. The dtypes and formats come from RUNTIME's tables
(libbirsim_runtime.so). Each op carries a named location, so the two reports
can be matched."""
import random
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "utils"))
from birsim_runtime import Runtime  # noqa: E402

rt = Runtime(sys.argv[1])
DTYPES = rt.dtypes()
ONE_BYTE_FLOATS = [d for d in DTYPES if d.kind == "float" and d.bytes == 1]
REDUCING_FP8 = [d for d in ONE_BYTE_FLOATS if d.reduction == "fp8"]

rng = random.Random(0xF1DE)


def f32_hex(bits):
    return "0x%08X" % bits


def random_f32():
    kind = rng.randrange(6)
    if kind == 0:  # specials
        return rng.choice([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
                           0x00000000, 0x80000000, 0x00000001, 0x7F7FFFFF])
    if kind == 1:  # around the fp8 ranges
        return struct.unpack("<I", struct.pack("<f", rng.uniform(-70000, 70000)))[0]
    if kind == 2:  # small
        return struct.unpack("<I", struct.pack("<f", rng.uniform(-1e-3, 1e-3)))[0]
    return rng.getrandbits(32)


def fp8_pair_values(fp8, n):
    # Mostly large magnitudes so that sums overflow, some of everything: the
    # codes of the largest finite binade of an IEEE-like fp8 format.
    base = ((1 << fp8.exponent_bits) - 2) << fp8.mantissa_bits
    count = 1 << fp8.mantissa_bits
    return [rng.choice([rng.getrandbits(8), base + rng.randrange(count),
                        0x80 | (base + rng.randrange(count))])
            for _ in range(n)]


def dense_bits(values, width, shape):
    fmt = "0x%0{}X".format(width // 4)

    def nest(values, shape):
        if len(shape) == 1:
            return "[" + ", ".join(fmt % v for v in values) + "]"
        step = len(values) // shape[0]
        return "[" + ", ".join(nest(values[i:i + step], shape[1:])
                               for i in range(0, len(values), step)) + "]"
    return "dense<" + nest(values, shape) + ">"


ops = []  # (name, op text with %A / %B operands, operand types, result type)
args = []  # (constant text, type)


def constant(values, width, type_):
    shape = [int(d) for d in type_[len("tensor<"):].split("x")[:-1]]
    args.append((dense_bits(values, width, shape), type_))
    return len(args) - 1


for fp8 in REDUCING_FP8:
    t = "tensor<64x%s>" % fp8.mlir_type
    a = constant(fp8_pair_values(fp8, 64), 8, t)
    b = constant(fp8_pair_values(fp8, 64), 8, t)
    ops.append(("reduce_" + fp8.mlir_type, "birsim.reduce add {0}, {1} : " + t,
                [a, b], t))

cast_source = constant([random_f32() for _ in range(256)], 32, "tensor<256xf32>")
for fp8 in (d.mlir_type for d in ONE_BYTE_FLOATS):
    for config in ["none", "saturate", "nan_suppress", "saturate | nan_suppress"]:
        name = "cast_%s_%s" % (fp8, config.replace(" | ", "_"))
        ops.append((name, "birsim.cast {0} fp8_config<%s> : tensor<256xf32> to "
                    "tensor<256x%s>" % (config, fp8), [cast_source],
                    "tensor<256x%s>" % fp8))
for target in ["bf16", "f16", "i8", "ui16", "i64"]:
    ops.append(("cast_" + target, "birsim.cast {0} : tensor<256xf32> to "
                "tensor<256x%s>" % target, [cast_source], "tensor<256x%s>" % target))
bf16_source = constant([rng.getrandbits(16) for _ in range(256)], 16,
                       "tensor<256xbf16>")
ops.append(("cast_bf16_to_f8E5M2", "birsim.cast {0} fp8_config<none> : "
            "tensor<256xbf16> to tensor<256xf8E5M2>", [bf16_source],
            "tensor<256xf8E5M2>"))

tile_values = []
for block in range(2 * 64):  # blocks of 16 values sharing a scale
    scale = rng.randrange(90, 150)
    for _ in range(16):
        v = rng.getrandbits(32)
        exponent = max(1, min(254, scale - rng.randrange(0, 30)))
        v = (v & 0x807FFFFF) | (exponent << 23)
        if rng.randrange(20) == 0:
            v = rng.choice([0, 0x00000005, 0x3F808000, 0x3FFFFFFF])
        tile_values.append(v)
tiles = constant(tile_values, 32, "tensor<2x32x32xf32>")
for number, fmt, _, _, _ in rt.bfp_formats():
    bytes_ = rt.lib.birsim_bfp_tile_bytes(number)
    ops.append(("pack_" + fmt, "birsim.bfp_pack %s {0} : tensor<2x32x32xf32> -> "
                "tensor<2x%dxi8>" % (fmt, bytes_), [tiles], "tensor<2x%dxi8>" % bytes_))

# The Tensix FPU: mul and matmul below HiFi4 on random normal values with
# cancelling sums (K = 64).
def normal_f32():
    return struct.unpack("<I", struct.pack("<f", rng.gauss(0, 1)))[0]


x = constant([normal_f32() for _ in range(32 * 64)], 32, "tensor<32x64xf32>")
w = constant([normal_f32() for _ in range(64 * 32)], 32, "tensor<64x32xf32>")
ops.append(("tensix_mul_hifi2", "birsim.tensix_eltwise mul {0}, {0} dest fp32 "
            "src tf32 fidelity hifi2 : tensor<32x64xf32>, tensor<32x64xf32> -> "
            "tensor<32x64xf32>", [x], "tensor<32x64xf32>"))
for name, dest, result, fidelity in [("fp32_hifi3", "fp32", "f32", "hifi3"),
                                     ("bf16_lofi", "bf16", "bf16", "lofi")]:
    ops.append(("tensix_matmul_" + name, "birsim.tensix_matmul {0}, {1} dest %s "
                "src tf32, bf16 fidelity %s : tensor<32x64xf32>, "
                "tensor<64x32xf32> -> tensor<32x32x%s>" % (dest, fidelity, result),
                [x, w], "tensor<32x32x%s>" % result))

# Wormhole's -1 unit (#38306): output (0, 0) is 1.5 x 1.25 in the first
# K tile, then -1.5 x 1.25 and -2^-12 x 2^-11 (each its own group) in the
# second: Dest's 1.875 minus 1.875 + 2^-23 leaves exactly -1 unit.
def f32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


quirk0 = [0] * (32 * 64)
quirk1 = [0] * (64 * 32)
for kk, a, b in ((0, 1.5, 1.25), (32, -1.5, 1.25), (40, -2.0 ** -12, 2.0 ** -11)):
    quirk0[kk] = f32_bits(a)
    quirk1[kk * 32] = f32_bits(b)
q0 = constant(quirk0, 32, "tensor<32x64xf32>")
q1 = constant(quirk1, 32, "tensor<64x32xf32>")
ops.append(("tensix_matmul_quirk", "birsim.tensix_matmul {0}, {1} dest fp32 "
            "src bf16, bf16 fidelity lofi : tensor<32x64xf32>, "
            "tensor<64x32xf32> -> tensor<32x32xf32>", [q0, q1],
            "tensor<32x32xf32>"))

mode = sys.argv[2]
out = ["// GENERATED by test/Integration/Inputs/gen-fidelity.py %s" % mode]
if mode == "constants":
    out.append("func.func @workload() {")
    for i, (value, type_) in enumerate(args):
        out.append("  %%c%d = arith.constant %s : %s" % (i, value, type_))
    for k, (name, text, operands, result) in enumerate(ops):
        out.append("  %%r%d = %s loc(\"%s\")" % (
            k, text.format(*["%%c%d" % o for o in operands]), name))
    out.append("  return")
    out.append("}")
else:
    params = ", ".join("%%a%d: %s" % (i, t) for i, (_, t) in enumerate(args))
    results = ", ".join(r for _, _, _, r in ops)
    out.append("func.func @kernel(%s) -> (%s) {" % (params, results))
    for k, (name, text, operands, result) in enumerate(ops):
        out.append("  %%r%d = %s loc(\"%s\")" % (
            k, text.format(*["%%a%d" % o for o in operands]), name))
    out.append("  return %s : %s" % (", ".join("%%r%d" % k for k in range(len(ops))),
                                     results))
    out.append("}")
    out.append("func.func @main() {")
    for i, (value, type_) in enumerate(args):
        out.append("  %%c%d = arith.constant %s : %s" % (i, value, type_))
    out.append("  %%r:%d = func.call @kernel(%s) : (%s) -> (%s)" % (
        len(ops), ", ".join("%%c%d" % i for i in range(len(args))),
        ", ".join(t for _, t in args), results))
    out.append("  return")
    out.append("}")
print("\n".join(out))
