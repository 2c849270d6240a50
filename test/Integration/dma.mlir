// The DMA's arithmetic across dtypes (docs/Semantics.md section 8) through
// the runtime: tensor (bufferized), vector and scalar forms and the
// scatter, with bits checked by hand.
// RUN: birsim-opt %s --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s

func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

func.func private @show(%t: tensor<4xi64>) {
  %m = bufferization.to_buffer %t : tensor<4xi64> to memref<4xi64>
  %u = memref.cast %m : memref<4xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

// Not inlined: the runtime computes, not the folder.
func.func private @psum(%psum: tensor<4xbf16>, %mm: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = birsim.dma_compute add %psum, %mm : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

func.func private @to_bf16(%x: vector<4xi32>) -> vector<4xbf16> {
  %0 = birsim.dma_compute add %x : vector<4xi32> -> vector<4xbf16>
  return %0 : vector<4xbf16>
}

func.func private @max_fp8(%x: f32, %y: bf16) -> f8E4M3 {
  %0 = birsim.dma_compute max %x, %y : f32, bf16 -> f8E4M3
  return %0 : f8E4M3
}

func.func @main() {
  // Trainium3's bf16 PSUM: 1 + 2^-8 ties to 1, 1 + 1.5 * 2^-8 rounds up,
  // 256 + 1 ties to 256, Inf + -Inf is bf16's NaN.
  %p = arith.constant dense<[1.0, 1.0, 256.0, 0x7F80]> : tensor<4xbf16>
  %m = arith.constant dense<[0.00390625, 0.005859375, 1.0, 0xFF800000]> : tensor<4xf32>
  %r = call @psum(%p, %m) : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xbf16>
  %rb = arith.bitcast %r : tensor<4xbf16> to tensor<4xi16>
  %rw = arith.extui %rb : tensor<4xi16> to tensor<4xi64>
  // CHECK: [16256, 16257, 17280, 32704]
  call @show(%rw) : (tensor<4xi64>) -> ()

  // int32 into bf16 through fp32: 2^24 + 2^16 + 1 rounds twice to 2^24.
  %i = arith.constant dense<[16842753, 1, -3, 0]> : vector<4xi32>
  %v = call @to_bf16(%i) : (vector<4xi32>) -> vector<4xbf16>
  %vb = arith.bitcast %v : vector<4xbf16> to vector<4xi16>
  %vw = arith.extui %vb : vector<4xi16> to vector<4xi64>
  // CHECK: ( 19328, 16256, 49216, 0 )
  vector.print %vw : vector<4xi64>

  // max(2.5, 3.0) = 3.0 = 0x44 in float8e4.
  %x = arith.constant 2.5 : f32
  %y = arith.constant 3.0 : bf16
  %s = call @max_fp8(%x, %y) : (f32, bf16) -> f8E4M3
  %sb = arith.bitcast %s : f8E4M3 to i8
  %sw = arith.extui %sb : i8 to i64
  // CHECK: 68
  vector.print %sw : i64

  // dma_copy's read-modify-write scatter: index 0 twice, each 2^-8 tying
  // to 1; index 1 gets 2 then 1.
  %dst = memref.alloc() : memref<4xbf16>
  %one = arith.constant 0x3F80 : bf16
  linalg.fill ins(%one : bf16) outs(%dst : memref<4xbf16>)
  %src_t = arith.constant dense<[0.00390625, 0.00390625, 2.0, 1.0]> : tensor<4xf32>
  %idx_t = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
  %src = bufferization.to_buffer %src_t read_only : tensor<4xf32> to memref<4xf32>
  %idx = bufferization.to_buffer %idx_t read_only : tensor<4xi64> to memref<4xi64>
  birsim.dma_scatter add %src to %dst[%idx] : memref<4xf32>, memref<4xi64> to memref<4xbf16>
  %d = bufferization.to_tensor %dst restrict : memref<4xbf16> to tensor<4xbf16>
  %db = arith.bitcast %d : tensor<4xbf16> to tensor<4xi16>
  %dw = arith.extui %db : tensor<4xi16> to tensor<4xi64>
  // CHECK: [16256, 16512, 16256, 16256]
  call @show(%dw) : (tensor<4xi64>) -> ()
  return
}
