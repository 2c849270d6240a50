// Tensors of the dialect's own dtypes (float32r) and f8E8M0FNU go through
// bufferization and the lowering like any other.
// RUN: birsim-opt %s --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func private @round(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = birsim.cast %x : tensor<4xf32> to tensor<4x!birsim.float32r>
  %c = birsim.reduce copy %r, %r : tensor<4x!birsim.float32r>
  %back = birsim.cast %c : tensor<4x!birsim.float32r> to tensor<4xf32>
  return %back : tensor<4xf32>
}

func.func @main() {
  // float32r keeps 10 mantissa bits, rounding to nearest even:
  // 1 + 2^-10 stays, 1 + 2^-11 is a tie (-> 1), 1 + 3 * 2^-12 -> 1 + 2^-10.
  %x = arith.constant dense<[1.0009765625, 1.00048828125, 1.000732421875, -2.0]> : tensor<4xf32>
  %y = call @round(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %m = bufferization.to_buffer %y : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  // CHECK: [1.00098, 1, 1.00098, -2]
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // float8_e8m0fnu is a plain unsigned byte in the cast engine: 2.5 -> 2,
  // 3.5 -> 4 (these casts fold; the vector print lowers through scf).
  %v = arith.constant dense<[2.5, 3.5]> : vector<2xf32>
  %e = birsim.cast %v : vector<2xf32> to vector<2xf8E8M0FNU>
  %w = birsim.cast %e : vector<2xf8E8M0FNU> to vector<2xf32>
  // CHECK: ( 2, 4 )
  vector.print %w : vector<2xf32>
  return
}
