// RUN: birsim-opt %s -split-input-file -verify-diagnostics

// The DMA's rules (docs/Semantics.md section 8, docs/Decisions.md D54).

func.func @int64_source(%a: tensor<4xi64>) -> tensor<4xbf16> {
  // expected-error @+1 {{'birsim.dma_compute' op source 0 element type 'i64': dma_compute: dtype int64 is not one the DMA engine computes on: expected uint8, int8, uint16, int16, uint32, int32, float8e4, float8_e4m3fn, float8e5, float16, bfloat16 or float32 (docs/Semantics.md section 8)}}
  %0 = birsim.dma_compute add %a : tensor<4xi64> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @float32r_result(%a: tensor<4xf32>) -> tensor<4x!birsim.float32r> {
  // expected-error @+1 {{'birsim.dma_compute' op destination element type '!birsim.float32r': dma_compute: dtype float32r is not one the DMA engine computes on}}
  %0 = birsim.dma_compute add %a : tensor<4xf32> -> tensor<4x!birsim.float32r>
  return %0 : tensor<4x!birsim.float32r>
}

// -----

func.func @fp8e3_source(%a: tensor<4xf8E3M4>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{source 0 element type 'f8E3M4': dma_compute: dtype float8e3 is not one}}
  %0 = birsim.dma_compute add %a, %b : tensor<4xf8E3M4>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @stochastic_into_int32(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'birsim.dma_compute' op destination element type 'i32': invalid argument: stochastic rounding narrows into bfloat16, float16 or an fp8 dtype only}}
  %0 = birsim.dma_compute add %a {rounding = #birsim.rounding<stochastic>} : tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @copy(%a: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error @+1 {{'birsim.dma_compute' op combines sources with add, min or max, not 'copy', which is birsim.cast}}
  %0 = birsim.dma_compute copy %a : tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @seventeen(%a: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error @+1 {{'birsim.dma_compute' op takes 1 to 16 sources, got 17 (nki.isa.dma_compute's limit)}}
  %0 = birsim.dma_compute add %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a
      : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @shapes(%a: tensor<4xf32>) -> tensor<8xbf16> {
  // expected-error @+1 {{'birsim.dma_compute' op requires the same shape for all operands and results}}
  %0 = birsim.dma_compute add %a : tensor<4xf32> -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

func.func @containers(%a: vector<4xf32>) -> tensor<4xbf16> {
  // expected-error @+1 {{'birsim.dma_compute' op sources and result must all be tensors, vectors or scalars, got 'vector<4xf32>' and 'tensor<4xbf16>'}}
  %0 = birsim.dma_compute add %a : vector<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @into_counts(%a: memref<4xf32>, %d: memref<8xbf16>) {
  // expected-error @+1 {{'birsim.dma_compute_into' op source 'memref<4xf32>' and destination 'memref<8xbf16>' differ in element count}}
  birsim.dma_compute_into add %a to %d : memref<4xf32> to memref<8xbf16>
  return
}

// -----

func.func @scatter_indices(%s: memref<4xf32>, %i: memref<3xi64>, %d: memref<8xbf16>) {
  // expected-error @+1 {{'birsim.dma_scatter' op has 4 source elements but 3 indices}}
  birsim.dma_scatter add %s to %d[%i] : memref<4xf32>, memref<3xi64> to memref<8xbf16>
  return
}

// -----

func.func @scatter_uint64(%s: memref<4xf32>, %i: memref<4xi64>, %d: memref<8xui64>) {
  // expected-error @+1 {{'birsim.dma_scatter' op destination element type 'ui64': dma_compute: dtype uint64 is not one}}
  birsim.dma_scatter add %s to %d[%i] : memref<4xf32>, memref<4xi64> to memref<8xui64>
  return
}
