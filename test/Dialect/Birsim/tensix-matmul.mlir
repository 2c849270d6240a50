// The Tensix matmul (docs/Semantics.md section 7, "MVMUL", "matmul_tiles"):
// both forms parse and print, constants fold through the core, and,
// lowered, the runtime computes the same values; --birsim-fidelity counts
// the outputs a fidelity below HiFi4 changes and names the phases that
// multiply only zeros.
// RUN: birsim-opt %s | birsim-opt | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: birsim-opt %s --birsim-to-llvm='fold-constants=false' | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s --check-prefix=EXEC
// RUN: birsim-opt %s --birsim-fidelity=report=- -o /dev/null 2>&1 | \
// RUN:   FileCheck %s --check-prefix=FIDELITY

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// 64 products of 1.3125 x 7.96875 (tt-metal #12923's pair): 669.375
// exactly in an fp32 Dest; a bf16 Dest rounds after every MVMUL; LoFi
// drops the low slices.
// ROUND-LABEL: func.func @splats
// ROUND: birsim.tensix_matmul %{{.*}}, %{{.*}} dest bf16 src bf16, bf16 fidelity hifi2 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xbf16>
// ROUND: birsim.tensix_matmul %{{.*}}, %{{.*}} dest fp32 src tf32, bf16 fidelity lofi arch blackhole : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
// ROUND: birsim.tensix_matmul %{{.*}}, %{{.*}} dest fp32 src tf32, bf16 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
// FOLD-LABEL: func.func @splats
// FOLD-DAG: arith.constant dense<6.680000e+02> : tensor<32x32xbf16>
// FOLD-DAG: arith.constant dense<6.510000e+02> : tensor<32x32xf32>
// FOLD-DAG: arith.constant dense<6.693750e+02> : tensor<32x32xf32>
// FOLD-NOT: birsim.tensix_matmul
// 1.3125 has 5 significant bits: SrcB's low slice is zero, so phases 2
// and 3 multiply only zeros and HiFi2 gives HiFi4's bits.
// FIDELITY-NOT: remark: tensix_matmul at hifi2
// FIDELITY: remark: tensix_matmul at lofi: of 1024 outputs, 1024 below_hifi4 (first at index 0)
// FIDELITY: remark: tensix_matmul at hifi4: phases 2, 3 multiply only zeros: the operands carry at most 5 (in0, SrcB) and 8 (in1, SrcA) significant bits; their MVMULs still realign Dest (--birsim-tensix-useful-phases; docs/Semantics.md section 7)
// FIDELITY: "op": "birsim.tensix_matmul"
// FIDELITY: "below_hifi4": 0,
// FIDELITY: "op": "birsim.tensix_matmul"
// FIDELITY: "below_hifi4": 1024,
// FIDELITY: "op": "birsim.tensix_matmul"
// FIDELITY: "idle_phases": [
// FIDELITY-NEXT: 2,
// FIDELITY-NEXT: 3
func.func @splats() -> (tensor<32x32xbf16>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %a = arith.constant dense<1.3125> : tensor<32x64xf32>
  %b = arith.constant dense<7.96875> : tensor<64x32xf32>
  %bf = birsim.tensix_matmul %a, %b dest bf16 src bf16, bf16 fidelity hifi2 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xbf16>
  %lo = birsim.tensix_matmul %a, %b dest fp32 src tf32, bf16 fidelity lofi arch blackhole : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  %hi = birsim.tensix_matmul %a, %b dest fp32 src tf32, bf16 : tensor<32x64xf32>, tensor<64x32xf32> -> tensor<32x32xf32>
  return %bf, %lo, %hi : tensor<32x32xbf16>, tensor<32x32xf32>, tensor<32x32xf32>
}

// The buffer form: the worked example of section 7 ("Fidelity phases") in
// row 0, column 0: 0xBD8D (-0.0688477) at HiFi4, 0xBD8C (-0.0683594) at
// {0, 2}; then accumulate adds the HiFi4 product into Dest's -0.0683594.
// ROUND-LABEL: func.func @main
// FOLD-LABEL: func.func @main
// ROUND: birsim.tensix_matmul_into %{{.*}}, %{{.*}}, %{{.*}} dest bf16 src bf16, bf16 fidelity phases_02 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
// ROUND: birsim.tensix_matmul_into %{{.*}}, %{{.*}}, %{{.*}} dest bf16 src bf16, bf16 accumulate : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
// EXEC: [668,  668,  668]
// EXEC: [651,  651,  651]
// EXEC: [669.375,  669.375,  669.375]
// EXEC: [-0.0688477,  0,  0]
// EXEC: [-0.0683594,  0,  0]
// EXEC: [-0.138672,  0,  0]
func.func @main() {
  %bf, %lo, %hi = call @splats() : () -> (tensor<32x32xbf16>, tensor<32x32xf32>, tensor<32x32xf32>)
  %bf32 = birsim.tensix_pack %bf dest bf16 : tensor<32x32xbf16> -> tensor<32x32xf32>
  %rows = tensor.extract_slice %bf32[0, 0] [1, 3] [1, 1] : tensor<32x32xf32> to tensor<1x3xf32>
  %lrows = tensor.extract_slice %lo[0, 0] [1, 3] [1, 1] : tensor<32x32xf32> to tensor<1x3xf32>
  %hrows = tensor.extract_slice %hi[5, 7] [1, 3] [1, 1] : tensor<32x32xf32> to tensor<1x3xf32>
  %results = tensor.concat dim(0) %rows, %lrows, %hrows : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  %m = bufferization.to_buffer %results : tensor<3x3xf32> to memref<3x3xf32>
  %u = memref.cast %m : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  %zero = arith.constant 0.0 : f32
  %in0 = memref.alloc() : memref<32x32xf32>
  %in1 = memref.alloc() : memref<32x32xf32>
  linalg.fill ins(%zero : f32) outs(%in0 : memref<32x32xf32>)
  linalg.fill ins(%zero : f32) outs(%in1 : memref<32x32xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %x0 = arith.constant 14.5 : f32
  %x1 = arith.constant -14.5625 : f32
  %x16 = arith.constant -0.00341796875 : f32
  %one = arith.constant 1.0 : f32
  %w16 = arith.constant 1.75 : f32
  memref.store %x0, %in0[%c0, %c0] : memref<32x32xf32>
  memref.store %x1, %in0[%c0, %c1] : memref<32x32xf32>
  memref.store %x16, %in0[%c0, %c16] : memref<32x32xf32>
  memref.store %one, %in1[%c0, %c0] : memref<32x32xf32>
  memref.store %one, %in1[%c1, %c0] : memref<32x32xf32>
  memref.store %w16, %in1[%c16, %c0] : memref<32x32xf32>
  %d4 = memref.alloc() : memref<32x32xbf16>
  %d02 = memref.alloc() : memref<32x32xbf16>
  birsim.tensix_matmul_into %in0, %in1, %d4 dest bf16 src bf16, bf16 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
  birsim.tensix_matmul_into %in0, %in1, %d02 dest bf16 src bf16, bf16 fidelity phases_02 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
  %out = memref.alloc() : memref<32x32xf32>
  birsim.tensix_pack_into %d4, %out dest bf16 : memref<32x32xbf16> -> memref<32x32xf32>
  %row = memref.subview %out[0, 0] [1, 3] [1, 1] : memref<32x32xf32> to memref<1x3xf32, strided<[32, 1]>>
  %urow = memref.cast %row : memref<1x3xf32, strided<[32, 1]>> to memref<*xf32>
  call @printMemrefF32(%urow) : (memref<*xf32>) -> ()
  birsim.tensix_pack_into %d02, %out dest bf16 : memref<32x32xbf16> -> memref<32x32xf32>
  call @printMemrefF32(%urow) : (memref<*xf32>) -> ()
  birsim.tensix_matmul_into %in0, %in1, %d02 dest bf16 src bf16, bf16 accumulate : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xbf16>
  birsim.tensix_pack_into %d02, %out dest bf16 : memref<32x32xbf16> -> memref<32x32xf32>
  call @printMemrefF32(%urow) : (memref<*xf32>) -> ()
  return
}
