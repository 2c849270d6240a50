// RUN: birsim-opt %s --convert-tosa-to-birsim -split-input-file | FileCheck %s
// RUN: birsim-opt %s '--convert-tosa-to-birsim=fp8-config=saturate|nan_suppress' -split-input-file | FileCheck %s --check-prefix=CONFIG

// tosa.cast between float types becomes birsim.cast (saturating where
// TOSA's own lowering, a plain arith.truncf, overflows to NaN/Inf).
// CHECK-LABEL: func.func @float_casts
// CHECK: birsim.cast %{{.*}} : tensor<2x3xf32> to tensor<2x3xf8E4M3FN>
// CHECK: birsim.cast %{{.*}} : tensor<4xbf16> to tensor<4xf32>
// CONFIG: birsim.cast %{{.*}} fp8_config<saturate | nan_suppress> : tensor<2x3xf32> to tensor<2x3xf8E4M3FN>
func.func @float_casts(%a: tensor<2x3xf32>, %b: tensor<4xbf16>) -> (tensor<2x3xf8E4M3FN>, tensor<4xf32>) {
  %0 = tosa.cast %a : (tensor<2x3xf32>) -> tensor<2x3xf8E4M3FN>
  %1 = tosa.cast %b : (tensor<4xbf16>) -> tensor<4xf32>
  return %0, %1 : tensor<2x3xf8E4M3FN>, tensor<4xf32>
}

// -----

// Integer casts (they wrap), integer <-> float, f8E8M0FNU and unranked
// tensors stay.
// CHECK-LABEL: func.func @stay
// CHECK-COUNT-4: tosa.cast
// CHECK-NOT: birsim.cast
func.func @stay(%a: tensor<4xi32>, %b: tensor<4xf32>, %c: tensor<4xf8E8M0FNU>, %d: tensor<*xf32>)
    -> (tensor<4xi8>, tensor<4xi32>, tensor<4xf32>, tensor<*xbf16>) {
  %0 = tosa.cast %a : (tensor<4xi32>) -> tensor<4xi8>
  %1 = tosa.cast %b : (tensor<4xf32>) -> tensor<4xi32>
  %2 = tosa.cast %c : (tensor<4xf8E8M0FNU>) -> tensor<4xf32>
  %3 = tosa.cast %d : (tensor<*xf32>) -> tensor<*xbf16>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi32>, tensor<4xf32>, tensor<*xbf16>
}
