"""Writes a module of 64 functions, each folding birsim ops on its own
constants (fp8/bf16 reduce, casts, collective, BFP pack)."""
import random
import sys

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
out = []
for f in range(64):
    fp8 = ", ".join(f"0x{random.randrange(256):02X}" for _ in range(64))
    f32 = ", ".join(f"{random.uniform(-1e5, 1e5):.6e}" for _ in range(64))
    out.append(f"""func.func @f{f}() -> (tensor<64xf8E4M3>, tensor<64xbf16>, tensor<64xf32>, tensor<1x1088xi8>) {{
  %a = arith.constant dense<[{fp8}]> : tensor<64xf8E4M3>
  %r = birsim.reduce add %a, %a : tensor<64xf8E4M3>
  %x = arith.constant dense<[{f32}]> : tensor<64xf32>
  %b = birsim.cast %x : tensor<64xf32> to tensor<64xbf16>
  %s = birsim.reduce max %b, %b : tensor<64xbf16>
  %c = birsim.collective_reduce add %x, %x : tensor<64xf32>
  %t = arith.constant dense<{random.uniform(-8, 8):.6e}> : tensor<1x32x32xf32>
  %p = birsim.bfp_pack bfp8_b %t : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  return %r, %s, %c, %p : tensor<64xf8E4M3>, tensor<64xbf16>, tensor<64xf32>, tensor<1x1088xi8>
}}""")
print("\n\n".join(out))
