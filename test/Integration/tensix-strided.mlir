// The Tensix buffer forms on strided views (docs/Conversions.md, "Buffers
// the runtime takes", D72): each view is part of a guarded buffer, so an
// element written in the wrong place or read from one shows as a changed
// sentinel or a wrong value. The lowering stages a view that is not
// contiguous row-major through a contiguous copy.
// RUN: birsim-opt %s --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN:   FileCheck %s

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func private @show(%m: memref<?xf32>) {
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Guarded buffers: sentinels -7 around and between the views.
memref.global "private" @eltwise_out_buffer : memref<12xf32> = dense<-7.0>
memref.global "private" @eltwise_acc_buffer : memref<12xf32> = dense<[-7.0, 10.0, -7.0, 20.0, -7.0, 30.0, -7.0, 40.0, -7.0, -7.0, -7.0, -7.0]>
memref.global "private" @pack_in_buffer : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
memref.global "private" @pack_out_buffer : memref<14xf32> = dense<-7.0>
memref.global "private" @pack_acc_buffer : memref<14xf32> = dense<[-7.0, -7.0, 100.0, -7.0, -7.0, 200.0, -7.0, -7.0, 300.0, -7.0, -7.0, 400.0, -7.0, -7.0]>
memref.global "private" @pack_bcast_buffer : memref<8xf32> = dense<-7.0>
memref.global "private" @permuted_in_buffer : memref<2x3x4xf32> = dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]], [[13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0]]]>
memref.global "private" @permuted_two_buffer : memref<2x3x4xf32> = dense<2.0>
memref.global "private" @permuted_out_buffer : memref<26xf32> = dense<-7.0>
memref.global "private" @bf16_out_buffer : memref<8xbf16> = dense<-7.0>
memref.global "private" @eltwise_sources_buffer : memref<12xf32> = dense<-7.0>

// Not inlined: the runtime computes, not the folder.
func.func private @eltwise(%a: memref<4xf32>, %b: memref<4xf32>,
                           %d: memref<4xf32, strided<[2], offset: 1>>) {
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 : memref<4xf32>, memref<4xf32> -> memref<4xf32, strided<[2], offset: 1>>
  return
}
func.func private @eltwise_acc(%a: memref<4xf32>, %b: memref<4xf32>,
                               %d: memref<4xf32, strided<[2], offset: 1>>) {
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 accumulate : memref<4xf32>, memref<4xf32> -> memref<4xf32, strided<[2], offset: 1>>
  return
}
func.func private @eltwise_bf16(%a: memref<4xf32>, %b: memref<4xf32>,
                                %d: memref<4xbf16, strided<[2]>>) {
  birsim.tensix_eltwise_into add %a, %b, %d dest bf16 src bf16 fidelity lofi : memref<4xf32>, memref<4xf32> -> memref<4xbf16, strided<[2]>>
  return
}
// A rank-3 Dest whose strides are not in row-major order (1, 8, 2): it
// fills 24 of 26 elements.
func.func private @eltwise_permuted(%a: memref<2x3x4xf32>, %b: memref<2x3x4xf32>,
                                    %d: memref<2x3x4xf32, strided<[1, 8, 2], offset: 1>>) {
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 : memref<2x3x4xf32>, memref<2x3x4xf32> -> memref<2x3x4xf32, strided<[1, 8, 2], offset: 1>>
  return
}
func.func private @matmul(%x: memref<32x32xf32>, %w: memref<32x32xf32>,
                          %d: memref<32x32xf32, strided<[64, 1], offset: 16>>) {
  birsim.tensix_matmul_into %x, %w, %d dest fp32 src bf16, bf16 : memref<32x32xf32>, memref<32x32xf32> -> memref<32x32xf32, strided<[64, 1], offset: 16>>
  return
}
func.func private @pack(%i: memref<4xf32, strided<[2], offset: 1>>,
                        %o: memref<4xf32, strided<[3], offset: 2>>) {
  birsim.tensix_pack_into %i, %o dest fp32 : memref<4xf32, strided<[2], offset: 1>> -> memref<4xf32, strided<[3], offset: 2>>
  return
}
// Strides known only at run time on the read side, an L1 accumulate on the
// written side (read and written).
func.func private @pack_acc(%i: memref<4xf32, strided<[?], offset: ?>>,
                            %o: memref<4xf32, strided<[3], offset: 2>>) {
  birsim.tensix_pack_into %i, %o dest fp32 l1_accumulate : memref<4xf32, strided<[?], offset: ?>> -> memref<4xf32, strided<[3], offset: 2>>
  return
}
// A broadcast read (stride 0) is fine: only a written view must have
// distinct elements.
func.func private @pack_bcast(%i: memref<4xf32, strided<[0], offset: 5>>,
                              %o: memref<4xf32, strided<[2]>>) {
  birsim.tensix_pack_into %i, %o dest fp32 : memref<4xf32, strided<[0], offset: 5>> -> memref<4xf32, strided<[2]>>
  return
}

// Strided sources: staged into contiguous copies, read only.
func.func private @eltwise_sources(%a: memref<4xf32, strided<[2], offset: 1>>,
                                   %b: memref<4xf32, strided<[2]>>,
                                   %d: memref<4xf32, strided<[3]>>) {
  birsim.tensix_eltwise_into mul %a, %b, %d dest fp32 src tf32 : memref<4xf32, strided<[2], offset: 1>>, memref<4xf32, strided<[2]>> -> memref<4xf32, strided<[3]>>
  return
}
func.func private @matmul_sources(%x: memref<32x32xf32, strided<[64, 1], offset: 32>>,
                                  %w: memref<32x32xf32, strided<[64, 1]>>,
                                  %d: memref<32x32xf32>) {
  birsim.tensix_matmul_into %x, %w, %d dest fp32 src bf16, bf16 : memref<32x32xf32, strided<[64, 1], offset: 32>>, memref<32x32xf32, strided<[64, 1]>> -> memref<32x32xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%two : f32) outs(%b : memref<4xf32>)
  scf.for %i = %c0 to %c32 step %c1 {
    %c4 = arith.constant 4 : index
    %in = arith.cmpi ult, %i, %c4 : index
    scf.if %in {
      %i1 = arith.addi %i, %c1 : index
      %n = arith.index_cast %i1 : index to i64
      %f = arith.sitofp %n : i64 to f32
      memref.store %f, %a[%i] : memref<4xf32>
    }
  }

  // Every other element from index 1 of 12 sentinels: [1,2,3,4] x 2.
  // CHECK: [-7,  2,  -7,  4,  -7,  6,  -7,  8,  -7,  -7,  -7,  -7]
  %eo = memref.get_global @eltwise_out_buffer : memref<12xf32>
  %ev = memref.subview %eo[1] [4] [2] : memref<12xf32> to memref<4xf32, strided<[2], offset: 1>>
  call @eltwise(%a, %b, %ev) : (memref<4xf32>, memref<4xf32>, memref<4xf32, strided<[2], offset: 1>>) -> ()
  %eod = memref.cast %eo : memref<12xf32> to memref<?xf32>
  call @show(%eod) : (memref<?xf32>) -> ()

  // Accumulate reads the view too: [10,20,30,40] + [2,4,6,8].
  // CHECK: [-7,  12,  -7,  24,  -7,  36,  -7,  48,  -7,  -7,  -7,  -7]
  %ea = memref.get_global @eltwise_acc_buffer : memref<12xf32>
  %eav = memref.subview %ea[1] [4] [2] : memref<12xf32> to memref<4xf32, strided<[2], offset: 1>>
  call @eltwise_acc(%a, %b, %eav) : (memref<4xf32>, memref<4xf32>, memref<4xf32, strided<[2], offset: 1>>) -> ()
  %ead = memref.cast %ea : memref<12xf32> to memref<?xf32>
  call @show(%ead) : (memref<?xf32>) -> ()

  // A bf16 Dest view, every other element: [1,2,3,4] + 2.
  // CHECK: [3,  -7,  4,  -7,  5,  -7,  6,  -7]
  %bo = memref.get_global @bf16_out_buffer : memref<8xbf16>
  %bv = memref.subview %bo[0] [4] [2] : memref<8xbf16> to memref<4xbf16, strided<[2]>>
  call @eltwise_bf16(%a, %b, %bv) : (memref<4xf32>, memref<4xf32>, memref<4xbf16, strided<[2]>>) -> ()
  %bw = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %c8 = arith.constant 8 : index
    %in = arith.cmpi ult, %i, %c8 : index
    scf.if %in {
      %v = memref.load %bo[%i] : memref<8xbf16>
      %w = arith.extf %v : bf16 to f32
      memref.store %w, %bw[%i] : memref<8xf32>
    }
  }
  %bwd = memref.cast %bw : memref<8xf32> to memref<?xf32>
  call @show(%bwd) : (memref<?xf32>) -> ()

  // Element [i][j][k] = 2 (12 i + 4 j + k + 1) at 1 + i + 8 j + 2 k.
  // CHECK: [-7,  2,  26,  4,  28,  6,  30,  8,  32,  10,  34,  12,  36,  14,  38,  16,  40,  18,  42,  20,  44,  22,  46,  24,  48,  -7]
  %pa3 = memref.get_global @permuted_in_buffer : memref<2x3x4xf32>
  %pb3 = memref.get_global @permuted_two_buffer : memref<2x3x4xf32>
  %po3 = memref.get_global @permuted_out_buffer : memref<26xf32>
  %pv3 = memref.reinterpret_cast %po3 to offset: [1], sizes: [2, 3, 4], strides: [1, 8, 2] : memref<26xf32> to memref<2x3x4xf32, strided<[1, 8, 2], offset: 1>>
  call @eltwise_permuted(%pa3, %pb3, %pv3) : (memref<2x3x4xf32>, memref<2x3x4xf32>, memref<2x3x4xf32, strided<[1, 8, 2], offset: 1>>) -> ()
  %pod3 = memref.cast %po3 : memref<26xf32> to memref<?xf32>
  call @show(%pod3) : (memref<?xf32>) -> ()

  // Every other element from index 1 of 1..8, into every third from
  // index 2 of 14 sentinels.
  // CHECK: [-7,  -7,  2,  -7,  -7,  4,  -7,  -7,  6,  -7,  -7,  8,  -7,  -7]
  %pi = memref.get_global @pack_in_buffer : memref<8xf32>
  %piv = memref.subview %pi[1] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2], offset: 1>>
  %po = memref.get_global @pack_out_buffer : memref<14xf32>
  %pov = memref.subview %po[2] [4] [3] : memref<14xf32> to memref<4xf32, strided<[3], offset: 2>>
  call @pack(%piv, %pov) : (memref<4xf32, strided<[2], offset: 1>>, memref<4xf32, strided<[3], offset: 2>>) -> ()
  %pod = memref.cast %po : memref<14xf32> to memref<?xf32>
  call @show(%pod) : (memref<?xf32>) -> ()

  // Every other element from index 0 (strides at run time), L1
  // accumulated into [100,200,300,400]: + [1,3,5,7].
  // CHECK: [-7,  -7,  101,  -7,  -7,  203,  -7,  -7,  305,  -7,  -7,  407,  -7,  -7]
  %pid = memref.cast %piv : memref<4xf32, strided<[2], offset: 1>> to memref<4xf32, strided<[?], offset: ?>>
  %piv0 = memref.subview %pi[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  %pid0 = memref.cast %piv0 : memref<4xf32, strided<[2]>> to memref<4xf32, strided<[?], offset: ?>>
  %pa = memref.get_global @pack_acc_buffer : memref<14xf32>
  %pav = memref.subview %pa[2] [4] [3] : memref<14xf32> to memref<4xf32, strided<[3], offset: 2>>
  call @pack_acc(%pid0, %pav) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[3], offset: 2>>) -> ()
  %pad = memref.cast %pa : memref<14xf32> to memref<?xf32>
  call @show(%pad) : (memref<?xf32>) -> ()

  // Element 5 (6.0) read four times.
  // CHECK: [6,  -7,  6,  -7,  6,  -7,  6,  -7]
  %pbi = memref.reinterpret_cast %pi to offset: [5], sizes: [4], strides: [0] : memref<8xf32> to memref<4xf32, strided<[0], offset: 5>>
  %pb = memref.get_global @pack_bcast_buffer : memref<8xf32>
  %pbv = memref.subview %pb[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  call @pack_bcast(%pbi, %pbv) : (memref<4xf32, strided<[0], offset: 5>>, memref<4xf32, strided<[2]>>) -> ()
  %pbd = memref.cast %pb : memref<8xf32> to memref<?xf32>
  call @show(%pbd) : (memref<?xf32>) -> ()

  // A 32x32 matmul into columns 16..47 of a 32x64 buffer of sentinels:
  // x is all ones, w[k][n] = n, so row m of the product is 32 n.
  %x = memref.alloc() : memref<32x32xf32>
  %w = memref.alloc() : memref<32x32xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%x : memref<32x32xf32>)
  scf.for %k = %c0 to %c32 step %c1 {
    scf.for %n = %c0 to %c32 step %c1 {
      %ni = arith.index_cast %n : index to i64
      %nf = arith.sitofp %ni : i64 to f32
      memref.store %nf, %w[%k, %n] : memref<32x32xf32>
    }
  }
  %big = memref.alloc() : memref<32x64xf32>
  %sentinel = arith.constant -7.0 : f32
  linalg.fill ins(%sentinel : f32) outs(%big : memref<32x64xf32>)
  %mid = memref.subview %big[0, 16] [32, 32] [1, 1] : memref<32x64xf32> to memref<32x32xf32, strided<[64, 1], offset: 16>>
  call @matmul(%x, %w, %mid) : (memref<32x32xf32>, memref<32x32xf32>, memref<32x32xf32, strided<[64, 1], offset: 16>>) -> ()
  // Every row (the 32 lines printed): 16 sentinels, 0, 32, ..., 992, 16
  // sentinels.
  // CHECK-COUNT-32: {{\[}}-7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  0,  32,  64,  96,  128,  160,  192,  224,  256,  288,  320,  352,  384,  416,  448,  480,  512,  544,  576,  608,  640,  672,  704,  736,  768,  800,  832,  864,  896,  928,  960,  992,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7,  -7]
  %bigu = memref.cast %big : memref<32x64xf32> to memref<*xf32>
  call @printMemrefF32(%bigu) : (memref<*xf32>) -> ()

  // Strided sources: every other element of 1..8 from index 1 times every
  // other from index 0, [2,4,6,8] x [1,3,5,7], into every third of 12
  // sentinels; the sources' buffer is unchanged.
  // CHECK: [2,  -7,  -7,  12,  -7,  -7,  30,  -7,  -7,  56,  -7,  -7]
  // CHECK: [1,  2,  3,  4,  5,  6,  7,  8]
  %so = memref.get_global @eltwise_sources_buffer : memref<12xf32>
  %sov = memref.subview %so[0] [4] [3] : memref<12xf32> to memref<4xf32, strided<[3]>>
  call @eltwise_sources(%piv, %piv0, %sov) : (memref<4xf32, strided<[2], offset: 1>>, memref<4xf32, strided<[2]>>, memref<4xf32, strided<[3]>>) -> ()
  %sod = memref.cast %so : memref<12xf32> to memref<?xf32>
  call @show(%sod) : (memref<?xf32>) -> ()
  %pidd = memref.cast %pi : memref<8xf32> to memref<?xf32>
  call @show(%pidd) : (memref<?xf32>) -> ()

  // A matmul of strided views: in0 is columns 32..63 of a 32x64 buffer
  // of ones beside sentinels, in1 the even rows of a 64x32 buffer whose
  // odd rows are 1000: row m of the product is 32 n.
  %xs = memref.alloc() : memref<32x64xf32>
  linalg.fill ins(%sentinel : f32) outs(%xs : memref<32x64xf32>)
  %xsv = memref.subview %xs[0, 32] [32, 32] [1, 1] : memref<32x64xf32> to memref<32x32xf32, strided<[64, 1], offset: 32>>
  linalg.fill ins(%one : f32) outs(%xsv : memref<32x32xf32, strided<[64, 1], offset: 32>>)
  %ws = memref.alloc() : memref<64x32xf32>
  %thousand = arith.constant 1000.0 : f32
  linalg.fill ins(%thousand : f32) outs(%ws : memref<64x32xf32>)
  %wsv = memref.subview %ws[0, 0] [32, 32] [2, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[64, 1]>>
  memref.copy %w, %wsv : memref<32x32xf32> to memref<32x32xf32, strided<[64, 1]>>
  %ms = memref.alloc() : memref<32x32xf32>
  call @matmul_sources(%xsv, %wsv, %ms) : (memref<32x32xf32, strided<[64, 1], offset: 32>>, memref<32x32xf32, strided<[64, 1]>>, memref<32x32xf32>) -> ()
  // CHECK-COUNT-32: {{\[}}0,  32,  64,  96,  128,  160,  192,  224,  256,  288,  320,  352,  384,  416,  448,  480,  512,  544,  576,  608,  640,  672,  704,  736,  768,  800,  832,  864,  896,  928,  960,  992]
  %msu = memref.cast %ms : memref<32x32xf32> to memref<*xf32>
  call @printMemrefF32(%msu) : (memref<*xf32>) -> ()
  return
}
