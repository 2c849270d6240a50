// Folders read `dense_resource` constants (the form importers give model
// weights) in place and write a new blob; inputs stay as they are.
// RUN: birsim-opt %s -canonicalize -split-input-file | FileCheck %s

// f32 [1.0, 2.0] + itself = [2.0, 4.0]; the input blob is unchanged.
// CHECK-LABEL: func.func @reduce_resource
// CHECK-DAG: %[[IN:.*]] = arith.constant dense_resource<weights> : tensor<2xf32>
// CHECK-DAG: %[[OUT:.*]] = arith.constant dense_resource<birsim_folded> : tensor<2xf32>
// CHECK: return %[[OUT]], %[[IN]]
// CHECK: weights: "0x040000000000803F00000040"
// CHECK: birsim_folded: "0x080000000000004000008040"
func.func @reduce_resource() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense_resource<weights> : tensor<2xf32>
  %r = birsim.reduce add %a, %a : tensor<2xf32>
  return %r, %a : tensor<2xf32>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A resource mixed with a splat; fp8 reduce on a 1-byte-aligned blob:
// E4M3 240 + 240 overflows to Inf (0x78), 1 + 1 = 2 (0x40).
// CHECK-LABEL: func.func @mixed
// CHECK-DAG: dense_resource<birsim_folded> : tensor<2xf32>
// CHECK-DAG: dense_resource<birsim_folded_1> : tensor<2xf8E4M3>
// CHECK-DAG: birsim_folded: "0x080000000000004000004040"
// CHECK-DAG: birsim_folded_1: "0x080000007840"
func.func @mixed() -> (tensor<2xf32>, tensor<2xf8E4M3>) {
  %a = arith.constant dense_resource<w32> : tensor<2xf32>
  %one = arith.constant dense<1.0> : tensor<2xf32>
  %r = birsim.reduce add %one, %a : tensor<2xf32>
  %b = arith.constant dense_resource<w8> : tensor<2xf8E4M3>
  %s = birsim.reduce add %b, %b : tensor<2xf8E4M3>
  return %r, %s : tensor<2xf32>, tensor<2xf8E4M3>
}

{-#
  dialect_resources: {
    builtin: {
      w32: "0x040000000000803F00000040",
      w8: "0x010000007738"
    }
  }
#-}

// -----

// Casts and the collective reducer: f32 [1.0, 2.0] -> bf16 [0x3F80, 0x4000];
// collective max of the blob with itself.
// CHECK-LABEL: func.func @cast_and_collective
// CHECK-DAG: dense_resource<birsim_folded> : tensor<2xbf16>
// CHECK-DAG: dense_resource<birsim_folded_1> : tensor<2xf32>
// CHECK-DAG: birsim_folded: "0x08000000803F0040"
// CHECK-DAG: birsim_folded_1: "0x080000000000803F00000040"
func.func @cast_and_collective() -> (tensor<2xbf16>, tensor<2xf32>) {
  %a = arith.constant dense_resource<w> : tensor<2xf32>
  %c = birsim.cast %a : tensor<2xf32> to tensor<2xbf16>
  %m = birsim.collective_reduce max %a, %a : tensor<2xf32>
  return %c, %m : tensor<2xbf16>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// Elided, missing and wrongly sized blobs are left unfolded.
// CHECK-LABEL: func.func @unfoldable
// CHECK: birsim.reduce add
// CHECK: birsim.reduce add
// CHECK: birsim.cast
func.func @unfoldable() -> (tensor<2xf32>, tensor<2xf32>, tensor<4xbf16>) {
  %e = arith.constant dense_resource<__elided__> : tensor<2xf32>
  %r1 = birsim.reduce add %e, %e : tensor<2xf32>
  %m = arith.constant dense_resource<missing> : tensor<2xf32>
  %r2 = birsim.reduce add %m, %m : tensor<2xf32>
  %s = arith.constant dense_resource<short> : tensor<4xf32>
  %c = birsim.cast %s : tensor<4xf32> to tensor<4xbf16>
  return %r1, %r2, %c : tensor<2xf32>, tensor<2xf32>, tensor<4xbf16>
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F00000040"
    }
  }
#-}
