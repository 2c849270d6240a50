// The Tensix FPU's elementwise ops and the packer (docs/Semantics.md
// section 7): the ops parse and print, fold through the core, and, lowered,
// run to the same values through the runtime; --birsim-fidelity counts the
// elements a fidelity below HiFi4 changes and names the phases that add
// nothing.
// RUN: birsim-opt %s | birsim-opt | FileCheck %s --check-prefix=ROUND
// RUN: birsim-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: birsim-opt %s --birsim-to-llvm='fold-constants=false' | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s --check-prefix=EXEC
// RUN: birsim-opt %s --birsim-fidelity=report=- -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIDELITY

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// Silicon on Wormhole with a bf16 Dest, the first operand in SrcA:
// tt-metal #12923 (1.3125 x 7.96875: 10.4375 at HiFi2, 10.5 at HiFi4),
// #16448 (-3.640625 x 0.298828125: -1.09375 at HiFi4) and PR #35077
// (508 x 748: 376832 at HiFi2, 378880 at HiFi4).
// ROUND-LABEL: func.func @silicon
// ROUND: birsim.tensix_eltwise mul %{{.*}}, %{{.*}} dest bf16 src bf16 fidelity hifi2 : tensor<3xf32>, tensor<3xf32> -> tensor<3xbf16>
// ROUND: birsim.tensix_eltwise mul %{{.*}}, %{{.*}} dest bf16 src bf16 : tensor<3xf32>, tensor<3xf32> -> tensor<3xbf16>
// ROUND: birsim.tensix_pack %{{.*}} dest bf16 : tensor<3xbf16> -> tensor<3xf32>
// FOLD-LABEL: func.func @silicon
// FOLD-DAG: arith.constant dense<[1.043750e+01, -1.0859375, 3.768320e+05]> : tensor<3xf32>
// FOLD-DAG: arith.constant dense<[1.050000e+01, -1.093750e+00, 3.788800e+05]> : tensor<3xf32>
// FOLD-NOT: birsim.tensix
// FIDELITY: remark: tensix_eltwise mul at hifi2: of 3 values, 3 below_hifi4 (first at index 0)
func.func @silicon() -> (tensor<3xf32>, tensor<3xf32>) {
  %a = arith.constant dense<[1.3125, -3.640625, 508.0]> : tensor<3xf32>
  %b = arith.constant dense<[7.96875, 0.298828125, 748.0]> : tensor<3xf32>
  %h2 = birsim.tensix_eltwise mul %a, %b dest bf16 src bf16 fidelity hifi2 : tensor<3xf32>, tensor<3xf32> -> tensor<3xbf16>
  %h4 = birsim.tensix_eltwise mul %a, %b dest bf16 src bf16 : tensor<3xf32>, tensor<3xf32> -> tensor<3xbf16>
  %o2 = birsim.tensix_pack %h2 dest bf16 : tensor<3xbf16> -> tensor<3xf32>
  %o4 = birsim.tensix_pack %h4 dest bf16 : tensor<3xbf16> -> tensor<3xf32>
  return %o2, %o4 : tensor<3xf32>, tensor<3xf32>
}

// Operands of 3 (SrcA, like bfp4: tt-metal #39627) and 5 significant bits:
// phases 1, 2 and 3 add nothing; an fp32 Dest, TF32 Src, on Blackhole,
// packed to bfloat16 and float16; sums and products of op results.
// ROUND-LABEL: func.func @phases
// ROUND: birsim.tensix_eltwise mul %{{.*}}, %{{.*}} dest fp32 src tf32 fidelity phases_02 arch blackhole
// ROUND: birsim.tensix_eltwise sub %{{.*}}, %{{.*}} dest fp32 src tf32 fidelity lofi arch blackhole
// FOLD-LABEL: func.func @phases
// FOLD-DAG: arith.constant dense<[1.640630e+00, -4.687500e+00]> : tensor<2xbf16>
// FOLD-DAG: arith.constant dense<[1.640630e+00, -4.687500e+00]> : tensor<2xf16>
// FOLD-DAG: arith.constant dense<[1.562500e-02, 83.265625]> : tensor<2xf32>
// FIDELITY: remark: tensix_eltwise mul at hifi4: phases 1, 2, 3 add nothing: the operands carry at most 3 (SrcA) and 5 (SrcB) significant bits (docs/Semantics.md section 7)
// FIDELITY: remark: tensix_eltwise mul at phases_02: phase 2 adds nothing
// FIDELITY: "idle_phases": []
// FIDELITY: "idle_phases": [{{$}}
// FIDELITY-NEXT: 1,
// FIDELITY-NEXT: 2,
// FIDELITY-NEXT: 3
func.func @phases() -> (tensor<2xbf16>, tensor<2xf16>, tensor<2xf32>) {
  %a = arith.constant dense<[1.25, -3.0]> : tensor<2xf32>
  %b = arith.constant dense<[1.3125, 1.5625]> : tensor<2xf32>
  %all = birsim.tensix_eltwise mul %a, %b dest fp32 src tf32 arch blackhole : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %even = birsim.tensix_eltwise mul %a, %b dest fp32 src tf32 fidelity phases_02 arch blackhole : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %diff = birsim.tensix_eltwise sub %a, %b dest fp32 src tf32 fidelity lofi arch blackhole : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %bf = birsim.tensix_pack %all dest fp32 arch blackhole : tensor<2xf32> -> tensor<2xbf16>
  %h = birsim.tensix_pack %even dest fp32 arch blackhole : tensor<2xf32> -> tensor<2xf16>
  %s = birsim.tensix_eltwise add %diff, %diff dest fp32 src tf32 fidelity lofi arch blackhole : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  %n = birsim.tensix_eltwise mul %s, %s dest fp32 src tf32 arch blackhole : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %bf, %h, %n : tensor<2xbf16>, tensor<2xf16>, tensor<2xf32>
}

// The buffer forms with accumulation: Dest starts from its values, and the
// packer adds into L1 (Pack_L1_Acc).
// EXEC: [10.4375,  -1.08594,  376832]
// EXEC: [10.5,  -1.09375,  378880]
// EXEC: [11,  21,  31]
// EXEC: [12,  22,  32]
func.func @main() {
  %o2, %o4 = call @silicon() : () -> (tensor<3xf32>, tensor<3xf32>)
  %m2 = bufferization.to_buffer %o2 : tensor<3xf32> to memref<3xf32>
  %m4 = bufferization.to_buffer %o4 : tensor<3xf32> to memref<3xf32>
  %u2 = memref.cast %m2 : memref<3xf32> to memref<*xf32>
  %u4 = memref.cast %m4 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %a = memref.alloc() : memref<3xf32>
  %b = memref.alloc() : memref<3xf32>
  %d = memref.alloc() : memref<3xf32>
  %l1 = memref.alloc() : memref<3xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<3xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<3xf32>)
  linalg.fill ins(%one : f32) outs(%l1 : memref<3xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f10 = arith.constant 10.0 : f32
  %f20 = arith.constant 20.0 : f32
  %f30 = arith.constant 30.0 : f32
  memref.store %f10, %d[%c0] : memref<3xf32>
  memref.store %f20, %d[%c1] : memref<3xf32>
  memref.store %f30, %d[%c2] : memref<3xf32>
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 accumulate : memref<3xf32>, memref<3xf32> -> memref<3xf32>
  %ud = memref.cast %d : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%ud) : (memref<*xf32>) -> ()
  birsim.tensix_pack_into %d, %l1 dest fp32 l1_accumulate : memref<3xf32> -> memref<3xf32>
  %ul = memref.cast %l1 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%ul) : (memref<*xf32>) -> ()
  return
}
