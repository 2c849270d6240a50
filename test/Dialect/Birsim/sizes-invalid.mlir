// Every birsim op's static shapes have element counts and byte sizes that
// fit in int64 (Birsim_SizedShapes; docs/Decisions.md D76): issue 64's
// reproducers, which wrapped `count * bytes` in the folders and analyses
// and overwrote the stack, are rejected by the verifier instead.
// RUN: birsim-opt %s -split-input-file -verify-diagnostics
// RUN: birsim-opt %s -split-input-file -canonicalize -verify-diagnostics
// RUN: birsim-opt %s -split-input-file --birsim-fidelity -verify-diagnostics

// 2^62 fp32 elements: 2^64 bytes.
func.func @dma_stochastic() -> tensor<4611686018427387904xbf16> {
  %x = arith.constant dense<1.00244140625> : tensor<4611686018427387904xf32>
  // expected-error @+1 {{'birsim.dma_compute' op operand #0 of type 'tensor<4611686018427387904xf32>' has more elements or bytes than int64 holds (docs/Decisions.md D76)}}
  %r = birsim.dma_compute add %x {rounding = #birsim.rounding<stochastic>, seed = 7 : i64} : tensor<4611686018427387904xf32> -> tensor<4611686018427387904xbf16>
  return %r : tensor<4611686018427387904xbf16>
}

// -----

func.func @matmul() -> tensor<144115188075855872x32xf32> {
  %a = arith.constant dense<1.0> : tensor<144115188075855872x32xf32>
  %b = arith.constant dense<1.0> : tensor<32x32xf32>
  // expected-error @+1 {{'birsim.tensix_matmul' op operand #0 of type 'tensor<144115188075855872x32xf32>' has more elements or bytes than int64 holds}}
  %d = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : tensor<144115188075855872x32xf32>, tensor<32x32xf32> -> tensor<144115188075855872x32xf32>
  return %d : tensor<144115188075855872x32xf32>
}

// -----

func.func @eltwise() -> tensor<4611686018427387904xf32> {
  %a = arith.constant dense<1.5> : tensor<4611686018427387904xf32>
  // expected-error @+1 {{'birsim.tensix_eltwise' op operand #0 of type 'tensor<4611686018427387904xf32>' has more elements or bytes than int64 holds}}
  %d = birsim.tensix_eltwise mul %a, %a dest fp32 src bf16 : tensor<4611686018427387904xf32>, tensor<4611686018427387904xf32> -> tensor<4611686018427387904xf32>
  return %d : tensor<4611686018427387904xf32>
}

// -----

// The element count itself overflows int64 (2^40 x 2^40).
func.func @count(%a: tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32> {
  // expected-error @+1 {{'birsim.cast' op operand #0 of type 'tensor<1099511627776x1099511627776xf32>' has more elements or bytes than int64 holds}}
  %r = birsim.cast %a : tensor<1099511627776x1099511627776xf32> to tensor<1099511627776x1099511627776xf32>
  return %r : tensor<1099511627776x1099511627776xf32>
}

// -----

// Memrefs too: a buffer form's sizes are the lowering's.
func.func @into(%a: memref<4611686018427387904xf32>, %d: memref<4611686018427387904xbf16>) {
  // expected-error @+1 {{'birsim.tensix_pack_into' op operand #0 of type 'memref<4611686018427387904xf32>' has more elements or bytes than int64 holds}}
  birsim.tensix_pack_into %a, %d dest fp32 : memref<4611686018427387904xf32> -> memref<4611686018427387904xbf16>
  return
}
