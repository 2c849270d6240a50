// Scatter through an index buffer, in order, with repeated indices.
// RUN: birsim-opt %s --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s

func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

func.func private @show(%t: tensor<8xi64>) {
  %m = bufferization.to_buffer %t : tensor<8xi64> to memref<8xi64>
  %u = memref.cast %m : memref<8xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  // bf16: dst = 1.0 everywhere; src = [1, 2^-8, 2, +Inf, 1, -Inf] at
  // indices [3, 3, 3, 0, 7, 0]. dst[3] = ((1 + 1) + 2^-8) + 2 = 4 (the 2^-8
  // is lost to rounding); dst[0] = (1 + Inf) + -Inf = default NaN -> 0x7FC0.
  %dst = memref.alloc() : memref<8xbf16>
  %one = arith.constant 0x3F80 : bf16
  linalg.fill ins(%one : bf16) outs(%dst : memref<8xbf16>)
  %src_t = arith.constant dense<[0x3F80, 0x3B80, 0x4000, 0x7F80, 0x3F80, 0xFF80]> : tensor<6xbf16>
  %idx_t = arith.constant dense<[3, 3, 3, 0, 7, 0]> : tensor<6xi64>
  %src = bufferization.to_buffer %src_t read_only : tensor<6xbf16> to memref<6xbf16>
  %idx = bufferization.to_buffer %idx_t read_only : tensor<6xi64> to memref<6xi64>
  birsim.indirect_save_accumulate add %src to %dst[%idx] : memref<6xbf16>, memref<6xi64> to memref<8xbf16>
  %r = bufferization.to_tensor %dst restrict : memref<8xbf16> to tensor<8xbf16>
  %bits = arith.bitcast %r : tensor<8xbf16> to tensor<8xi16>
  %wide = arith.extui %bits : tensor<8xi16> to tensor<8xi64>
  // CHECK: [32704, 16256, 16256, 16512, 16256, 16256, 16256, 16384]
  call @show(%wide) : (tensor<8xi64>) -> ()

  // f8E5M2 copy (cce_op bypass): the last write to an index wins.
  %d8 = memref.alloc() : memref<8xf8E5M2>
  %zero = arith.constant 0x00 : f8E5M2
  linalg.fill ins(%zero : f8E5M2) outs(%d8 : memref<8xf8E5M2>)
  %s8_t = arith.constant dense<[0x3C, 0x7B, 0xFC, 0x01]> : tensor<4xf8E5M2>
  %i8_t = arith.constant dense<[7, 1, 1, 0]> : tensor<4xi64>
  %s8 = bufferization.to_buffer %s8_t read_only : tensor<4xf8E5M2> to memref<4xf8E5M2>
  %i8 = bufferization.to_buffer %i8_t read_only : tensor<4xi64> to memref<4xi64>
  birsim.indirect_save bypass %s8 to %d8[%i8] : memref<4xf8E5M2>, memref<4xi64> to memref<8xf8E5M2>
  %r8 = bufferization.to_tensor %d8 restrict : memref<8xf8E5M2> to tensor<8xf8E5M2>
  %b8 = arith.bitcast %r8 : tensor<8xf8E5M2> to tensor<8xi8>
  %w8 = arith.extui %b8 : tensor<8xi8> to tensor<8xi64>
  // CHECK: [1, 252, 0, 0, 0, 0, 0, 60]
  call @show(%w8) : (tensor<8xi64>) -> ()
  return
}
