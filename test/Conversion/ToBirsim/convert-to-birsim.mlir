// The pipeline, then canonicalize: an importer's constant weights get the
// simulator's bytes. Upstream leaves truncf of 1.1 to bf16 unfolded (it
// rounds), and tosa.cast of 1000 to f8E4M3FN folds to NaN (0x7F) where the
// cast engine saturates to 448 (0x7E).
// RUN: birsim-opt %s --convert-to-birsim --canonicalize | FileCheck %s
// RUN: birsim-opt %s --convert-to-birsim --birsim-fidelity -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIDELITY
// The stock mlir-opt with the plugin runs the same pipeline (a plugin's
// passes are named in --pass-pipeline: its flags are parsed before it loads).
// RUN: mlir-opt %s --load-pass-plugin=%birsim_obj/lib/BirsimPlugin.so --load-dialect-plugin=%birsim_obj/lib/BirsimPlugin.so --pass-pipeline='builtin.module(convert-to-birsim,canonicalize)' | FileCheck %s

// RUN: birsim-opt %s --convert-to-birsim=int-casts=true --canonicalize | FileCheck %s --check-prefix=INT

// CHECK-LABEL: func.func @weights
// CHECK-DAG: arith.constant dense<[1.101560e+00, 2.000000e+00]> : tensor<2xbf16>
// CHECK-DAG: arith.constant dense<4.480000e+02> : tensor<4xf8E4M3FN>
// CHECK-NOT: arith.truncf
// CHECK-NOT: tosa.cast
// CHECK-NOT: linalg.generic
// FIDELITY: remark: cast 'f32' to 'f8E4M3FN' (fp8_config<saturate>): of 4 values, 4 saturated
func.func @weights(%init: tensor<3xf8E5M2>) -> (tensor<2xbf16>, tensor<4xf8E4M3FN>, tensor<3xf8E5M2>) {
  %w = arith.constant dense<[1.1, 2.0]> : tensor<2xf32>
  %0 = arith.truncf %w : tensor<2xf32> to tensor<2xbf16>
  %big = arith.constant dense<1000.0> : tensor<4xf32>
  %1 = tosa.cast %big : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %x = arith.constant dense<[0.1, 0.2, 70000.0]> : tensor<3xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%init : tensor<3xf8E5M2>) {
  ^bb0(%in: f32, %out: f8E5M2):
    %t = arith.truncf %in : f32 to f8E5M2
    linalg.yield %t : f8E5M2
  } -> tensor<3xf8E5M2>
  return %0, %1, %2 : tensor<2xbf16>, tensor<4xf8E4M3FN>, tensor<3xf8E5M2>
}

// Through fp32: 2^24 + 2^16 + 1 is 2^24 + 2^16 there, then a tie to even in
// bf16 gives 2^24 (one rounding would give 2^24 + 2^17).
// INT-LABEL: func.func @int_weight
// INT: arith.constant dense<1.677720e+07> : tensor<2xbf16>
func.func @int_weight() -> tensor<2xbf16> {
  %i = arith.constant dense<16842753> : tensor<2xi32>
  %0 = arith.sitofp %i : tensor<2xi32> to tensor<2xbf16>
  return %0 : tensor<2xbf16>
}
