// The converted module run with its constants as function arguments gives
// the bytes the folder gives them (docs/Conversions.md): @quantize runs in
// the runtime, the same ops in @main fold at compile time.
// RUN: birsim-opt %s --convert-to-birsim=reduce-add=true --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s
// CHECK: mismatches: 0
// CHECK-NEXT: mismatches: 0
// CHECK-NEXT: mismatches: 0
// The ops in @main fold; @quantize's three stay for the runtime.
// RUN: birsim-opt %s --convert-to-birsim=reduce-add=true --canonicalize | FileCheck %s --check-prefix=FOLDED
// FOLDED-LABEL: func.func @quantize
// FOLDED-COUNT-3: birsim.
// FOLDED-LABEL: func.func @main
// FOLDED-NOT: birsim.

#id = affine_map<(d0) -> (d0)>

// Run time: the arguments are not constants here.
func.func @quantize(%w: tensor<8xf32>, %x: tensor<8xbf16>)
    -> (tensor<8xf8E4M3FN>, tensor<8xbf16>, tensor<8xbf16>) {
  %init = tensor.empty() : tensor<8xf8E4M3FN>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<8xf32>) outs(%init : tensor<8xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<8xf8E4M3FN>
  %b = tosa.cast %w : (tensor<8xf32>) -> tensor<8xbf16>
  %s = arith.addf %b, %x : tensor<8xbf16>
  return %q, %b, %s : tensor<8xf8E4M3FN>, tensor<8xbf16>, tensor<8xbf16>
}

func.func private @mismatches(%n: tensor<8xi1>) {
  %ones = arith.extui %n : tensor<8xi1> to tensor<8xi64>
  %zero = arith.constant dense<0> : tensor<i64>
  %sum = linalg.reduce ins(%ones : tensor<8xi64>) outs(%zero : tensor<i64>) dimensions = [0]
    (%in: i64, %acc: i64) {
      %s = arith.addi %in, %acc : i64
      linalg.yield %s : i64
    }
  %count = tensor.extract %sum[] : tensor<i64>
  vector.print str "mismatches: "
  vector.print %count : i64
  return
}

func.func @main() {
  // Every class: tiny, rounding, beyond E4M3FN's 448, NaN, Inf, -0.
  %w = arith.constant dense<[1.0e-9, 0.1, -3.3, 1000.0, 0x7FC00001, 0xFF800000, -0.0, 65504.0]> : tensor<8xf32>
  %x = arith.constant dense<[1.0, 0x7F80, -2.5, 0.0078125, 1.0, 0xFF80, 0.0, -65536.0]> : tensor<8xbf16>
  %q, %b, %s = call @quantize(%w, %x) : (tensor<8xf32>, tensor<8xbf16>)
      -> (tensor<8xf8E4M3FN>, tensor<8xbf16>, tensor<8xbf16>)
  // Compile time: the same ops on the constants fold.
  %finit = tensor.empty() : tensor<8xf8E4M3FN>
  %fq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<8xf32>) outs(%finit : tensor<8xf8E4M3FN>) {
  ^bb0(%in: f32, %out: f8E4M3FN):
    %t = arith.truncf %in : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  } -> tensor<8xf8E4M3FN>
  %fb = tosa.cast %w : (tensor<8xf32>) -> tensor<8xbf16>
  %fs = arith.addf %fb, %x : tensor<8xbf16>

  %q8 = arith.bitcast %q : tensor<8xf8E4M3FN> to tensor<8xi8>
  %fq8 = arith.bitcast %fq : tensor<8xf8E4M3FN> to tensor<8xi8>
  %n0 = arith.cmpi ne, %q8, %fq8 : tensor<8xi8>
  call @mismatches(%n0) : (tensor<8xi1>) -> ()
  %b16 = arith.bitcast %b : tensor<8xbf16> to tensor<8xi16>
  %fb16 = arith.bitcast %fb : tensor<8xbf16> to tensor<8xi16>
  %n1 = arith.cmpi ne, %b16, %fb16 : tensor<8xi16>
  call @mismatches(%n1) : (tensor<8xi1>) -> ()
  %s16 = arith.bitcast %s : tensor<8xbf16> to tensor<8xi16>
  %fs16 = arith.bitcast %fs : tensor<8xbf16> to tensor<8xi16>
  %n2 = arith.cmpi ne, %s16, %fs16 : tensor<8xi16>
  call @mismatches(%n2) : (tensor<8xi1>) -> ()
  return
}
