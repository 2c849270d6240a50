// RUN: birsim-opt %s --birsim-fidelity -verify-diagnostics -o /dev/null
// RUN: grep -v expected-remark %s > %t.mlir
// RUN: birsim-opt %t.mlir --convert-to-birsim --birsim-fidelity -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERTED

// A module whose casts are still arith and tosa is not analysed silently:
// one remark, on the first, counts them and says what to run. After
// --convert-to-birsim the casts are birsim's and analysed (1000 saturates).
// CONVERTED-NOT: upstream cast
// CONVERTED: remark: cast 'f32' to 'f8E4M3FN' (fp8_config<saturate>): of 2 values, 1 saturated
// CONVERTED-NOT: upstream cast
func.func @weights() -> (tensor<2xf8E4M3FN>, tensor<2xbf16>, f64) {
  %w = arith.constant dense<[0.5, 1000.0]> : tensor<2xf32>
  // expected-remark @+1 {{3 upstream cast(s) between the simulator's float types (this is the first) are not analysed: run --convert-to-birsim first (docs/Conversions.md)}}
  %q = arith.truncf %w : tensor<2xf32> to tensor<2xf8E4M3FN>
  %h = tosa.cast %w : (tensor<2xf32>) -> tensor<2xbf16>
  %x = arith.constant 1.0 : bf16
  %y = arith.extf %x : bf16 to f32
  // f64 is no type of the simulator's: not counted.
  %z = arith.extf %y : f32 to f64
  return %q, %h, %z : tensor<2xf8E4M3FN>, tensor<2xbf16>, f64
}
