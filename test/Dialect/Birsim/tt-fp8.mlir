// tt-metal's FP8 E4M3 conversions (docs/Semantics.md section 6): the ops
// parse and print, fold through the core, and, lowered, run to the same
// codes and values through the runtime; --birsim-fidelity counts where the
// policies disagree.
// RUN: birsim-opt %s | birsim-opt | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: birsim-opt %s --birsim-to-llvm='fold-constants=false' | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s --check-prefix=EXEC
// RUN: birsim-opt %s --birsim-fidelity -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIDELITY

func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// 1.0, 300, 470, -1e6, 2^-7 (0.0078125), 1.1875 under each policy: the
// host saturates at 240 and flushes below 2^-6, torch keeps 288 and the
// subnormal 2^-7 and turns 470 into NaN, the Blackhole packer truncates
// (448, 1.125) and flushes.
// ROUND-LABEL: func.func @codes
// ROUND: birsim.tt_fp8_encode ttmetal_host %{{.*}} : tensor<6xf32> -> tensor<6xi8>
// ROUND: birsim.tt_fp8_encode ocp_e4m3fn
// ROUND: birsim.tt_fp8_encode blackhole_packer
// FOLD-LABEL: func.func @codes
// FOLD-DAG: arith.constant dense<[56, 119, 119, -9, 0, 58]> : tensor<6xi8>
// FOLD-DAG: arith.constant dense<[56, 121, 127, -1, 4, 58]> : tensor<6xi8>
// FOLD-DAG: arith.constant dense<[56, 121, 126, -1, 0, 57]> : tensor<6xi8>
// FOLD-NOT: birsim.tt_fp8_encode
// FIDELITY: remark: tt_fp8_encode ttmetal_host: of 6 values, 4 host_ocp_differ (first at index 1), 4 host_blackhole_differ (first at index 1), 4 ocp_blackhole_differ (first at index 2)
func.func @codes() -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>) {
  %x = arith.constant dense<[1.0, 300.0, 470.0, -1.0e6, 0.0078125, 1.1875]> : tensor<6xf32>
  %h = birsim.tt_fp8_encode ttmetal_host %x : tensor<6xf32> -> tensor<6xi8>
  %o = birsim.tt_fp8_encode ocp_e4m3fn %x : tensor<6xf32> -> tensor<6xi8>
  %b = birsim.tt_fp8_encode blackhole_packer %x : tensor<6xf32> -> tensor<6xi8>
  return %h, %o, %b : tensor<6xi8>, tensor<6xi8>, tensor<6xi8>
}

// 0x7F under each policy: NaN, NaN, 511.75; 0x77: 240 each.
// FOLD-LABEL: func.func @values
// FOLD-DAG: arith.constant dense<[0x7FC00000, 2.400000e+02]> : tensor<2xf32>
// FOLD-DAG: arith.constant dense<[0x7FF00000, 2.400000e+02]> : tensor<2xf32>
// FOLD-DAG: arith.constant dense<[5.117500e+02, 2.400000e+02]> : tensor<2xf32>
func.func @values() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = arith.constant dense<[127, 119]> : tensor<2xi8>
  %h = birsim.tt_fp8_decode ttmetal_host %c : tensor<2xi8> -> tensor<2xf32>
  %o = birsim.tt_fp8_decode ocp_e4m3fn %c : tensor<2xi8> -> tensor<2xf32>
  %b = birsim.tt_fp8_decode blackhole_packer %c : tensor<2xi8> -> tensor<2xf32>
  return %h, %o, %b : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// EXEC: [56,  119,  119,  247,  0,  58]
// EXEC: [56,  121,  127,  255,  4,  58]
// EXEC: [56,  121,  126,  255,  0,  57]
// EXEC: [nan,  240]
// EXEC: [nan,  240]
// EXEC: [511.75,  240]
func.func @main() {
  %h, %o, %b = call @codes() : () -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>)
  call @printCodes(%h) : (tensor<6xi8>) -> ()
  call @printCodes(%o) : (tensor<6xi8>) -> ()
  call @printCodes(%b) : (tensor<6xi8>) -> ()
  %vh, %vo, %vb = call @values() : () -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  call @printValues(%vh) : (tensor<2xf32>) -> ()
  call @printValues(%vo) : (tensor<2xf32>) -> ()
  call @printValues(%vb) : (tensor<2xf32>) -> ()
  return
}

func.func private @printCodes(%c: tensor<6xi8>) {
  %wide = arith.extui %c : tensor<6xi8> to tensor<6xi64>
  %buf = bufferization.to_buffer %wide : tensor<6xi64> to memref<6xi64>
  %u = memref.cast %buf : memref<6xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func private @printValues(%v: tensor<2xf32>) {
  %buf = bufferization.to_buffer %v : tensor<2xf32> to memref<2xf32>
  %u = memref.cast %buf : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
