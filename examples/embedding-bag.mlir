// An embedding-bag (sum of looked-up rows per bag) in fp8 and bf16, the way
// the BIR simulator computes it, plus a BFP8 tile of the table.
//
//   birsim-opt embedding-bag.mlir -canonicalize     # folding only
//   birsim-opt embedding-bag.mlir --birsim-to-llvm | mlir-runner -e main ...

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

func.func private @show_f32(%t: tensor<?x4xf32>) {
  %m = bufferization.to_buffer %t : tensor<?x4xf32> to memref<?x4xf32>
  %u = memref.cast %m : memref<?x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func private @show_bits(%t: tensor<?x4xi64>) {
  %m = bufferization.to_buffer %t : tensor<?x4xi64> to memref<?x4xi64>
  %u = memref.cast %m : memref<?x4xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index

  // The fp32 embedding table: 5 rows of 4.
  %table = arith.constant dense<[[200.0, 1.0, 0.5, 1.0e6],
                                 [100.0, 1.0, 0.0625, -3.0],
                                 [1.0, 2.0, 3.0, 4.0],
                                 [0.1, 0.2, 0.3, 0.4],
                                 [-1.0, 0.5, 0.25, 8.0]]> : tensor<5x4xf32>

  // Quantized by the whole-tensor cast engine with its default FP8 config
  // 0x0001 (saturate): 1e6 becomes 240, the largest E4M3 value. Both casts
  // have constant operands, so they fold at compile time through the core.
  %table8 = birsim.cast %table : tensor<5x4xf32> to tensor<5x4xf8E4M3>
  %table16 = birsim.cast %table : tensor<5x4xf32> to tensor<5x4xbf16>

  // Part 1: fp8 bags by DMA accumulate (cce_op add), one lookup at a time.
  // Lookups (bag, row): bag 0 = rows {0, 1}, bag 1 = rows {1, 2, 3},
  // bag 2 = rows {4, 2}.
  %bag_of = arith.constant dense<[0, 0, 1, 1, 1, 2, 2]> : tensor<7xindex>
  %row_of = arith.constant dense<[0, 1, 1, 2, 3, 4, 2]> : tensor<7xindex>
  %t8 = bufferization.to_buffer %table8 read_only : tensor<5x4xf8E4M3> to memref<5x4xf8E4M3>
  %bags8 = memref.alloc() : memref<3x4xf8E4M3>
  %zero8 = arith.constant 0x00 : f8E4M3
  linalg.fill ins(%zero8 : f8E4M3) outs(%bags8 : memref<3x4xf8E4M3>)
  scf.for %k = %c0 to %c7 step %c1 {
    %b = tensor.extract %bag_of[%k] : tensor<7xindex>
    %r = tensor.extract %row_of[%k] : tensor<7xindex>
    %row = memref.subview %t8[%r, 0] [1, 4] [1, 1]
        : memref<5x4xf8E4M3> to memref<4xf8E4M3, strided<[1], offset: ?>>
    %bag = memref.subview %bags8[%b, 0] [1, 4] [1, 1]
        : memref<3x4xf8E4M3> to memref<4xf8E4M3, strided<[1], offset: ?>>
    birsim.dma_copy add %row to %bag
        : memref<4xf8E4M3, strided<[1], offset: ?>> to memref<4xf8E4M3, strided<[1], offset: ?>>
  }
  %bags8_t = bufferization.to_tensor %bags8 restrict : memref<3x4xf8E4M3> to tensor<3x4xf8E4M3>
  %bags8_f32 = birsim.cast %bags8_t : tensor<3x4xf8E4M3> to tensor<3x4xf32>
  %bags8_bits = arith.bitcast %bags8_t : tensor<3x4xf8E4M3> to tensor<3x4xi8>
  %bags8_wide = arith.extui %bags8_bits : tensor<3x4xi8> to tensor<3x4xi64>
  vector.print str "fp8 E4M3 bags (values, then raw bits):\n"
  %v8 = tensor.cast %bags8_f32 : tensor<3x4xf32> to tensor<?x4xf32>
  call @show_f32(%v8) : (tensor<?x4xf32>) -> ()
  %w8 = tensor.cast %bags8_wide : tensor<3x4xi64> to tensor<?x4xi64>
  call @show_bits(%w8) : (tensor<?x4xi64>) -> ()

  // Part 2: bf16 segment sum by one indirect save-accumulate: element
  // (row r, dim d) goes to bag(r) * 4 + d with bag(r) = [0, 0, 1, 1, 2].
  %t16 = bufferization.to_buffer %table16 read_only : tensor<5x4xbf16> to memref<5x4xbf16>
  %flat16 = memref.collapse_shape %t16 [[0, 1]] : memref<5x4xbf16> into memref<20xbf16>
  %targets = arith.constant dense<[0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<20xi64>
  %idx = bufferization.to_buffer %targets read_only : tensor<20xi64> to memref<20xi64>
  %bags16 = memref.alloc() : memref<12xbf16>
  %zero16 = arith.constant 0x0000 : bf16
  linalg.fill ins(%zero16 : bf16) outs(%bags16 : memref<12xbf16>)
  birsim.indirect_save_accumulate add %flat16 to %bags16[%idx]
      : memref<20xbf16>, memref<20xi64> to memref<12xbf16>
  %bags16_t = bufferization.to_tensor %bags16 restrict : memref<12xbf16> to tensor<12xbf16>
  %bags16_2d = tensor.expand_shape %bags16_t [[0, 1]] output_shape [3, 4] : tensor<12xbf16> into tensor<3x4xbf16>
  %bags16_f32 = birsim.cast %bags16_2d : tensor<3x4xbf16> to tensor<3x4xf32>
  vector.print str "bf16 segment sums:\n"
  %v16 = tensor.cast %bags16_f32 : tensor<3x4xf32> to tensor<?x4xf32>
  call @show_f32(%v16) : (tensor<?x4xf32>) -> ()

  // Part 3: the fp32 table in the top-left corner of a 32x32 tile, packed to
  // BFP8_b and unpacked: every row of 16 shares one exponent.
  %empty = arith.constant dense<0.0> : tensor<1x32x32xf32>
  %tile = tensor.insert_slice %table into %empty[0, 0, 0] [1, 5, 4] [1, 1, 1]
      : tensor<5x4xf32> into tensor<1x32x32xf32>
  %packed = birsim.bfp_pack bfp8_b %tile : tensor<1x32x32xf32> -> tensor<1x1088xi8>
  %back = birsim.bfp_unpack bfp8_b %packed : tensor<1x1088xi8> -> tensor<1x32x32xf32>
  %corner = tensor.extract_slice %back[0, 0, 0] [1, 5, 4] [1, 1, 1]
      : tensor<1x32x32xf32> to tensor<5x4xf32>
  vector.print str "BFP8_b round trip of the table (shared exponent per row):\n"
  %vc = tensor.cast %corner : tensor<5x4xf32> to tensor<?x4xf32>
  call @show_f32(%vc) : (tensor<?x4xf32>) -> ()
  %exps = tensor.extract_slice %packed[0, 0] [1, 5] [1, 1] : tensor<1x1088xi8> to tensor<5xi8>
  %exps_wide = arith.extui %exps : tensor<5xi8> to tensor<5xi64>
  %e0 = tensor.extract %exps_wide[%c0] : tensor<5xi64>
  vector.print str "shared exponent of row 0 (holds 1e6): "
  vector.print %e0 : i64
  return
}
