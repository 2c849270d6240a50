// Folding and the analyses are bounded (docs/Decisions.md D76): a product
// of two splats folds as a splat from one 32x32 tile, every analysis
// counts a splat once and scales, and beyond --birsim-fold-limit an op is
// left for run time with a remark. Issue 64's reproducers each took
// seconds to minutes or ran out of memory; `ulimit -v` (4 GiB) makes a
// regression fail here instead of exhausting the machine (not under ASan,
// whose shadow memory needs more address space).
// RUN: %if !sanitizer %{ulimit -v 4194304 &&%} birsim-opt %s -canonicalize -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FOLD
// RUN: %if !sanitizer %{ulimit -v 4194304 &&%} birsim-opt %s -canonicalize -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %if !sanitizer %{ulimit -v 4194304 &&%} birsim-opt %s --birsim-fidelity -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIDELITY
// RUN: %if !sanitizer %{ulimit -v 4194304 &&%} birsim-opt %s --birsim-tensix-useful-phases -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PHASES
// RUN: birsim-opt %s -canonicalize -split-input-file --birsim-fold-limit=100000 2>/dev/null | FileCheck %s --check-prefix=LIMIT
// RUN: birsim-opt %s -canonicalize -split-input-file --birsim-fold-limit=100000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT-REMARK

// 65536x32 by 32x65536 splats: 2^32 outputs, one tile computed.
// FOLD-LABEL: func.func @splat_matmul
// FOLD: arith.constant dense<6.000000e+01> : tensor<65536x65536xf32>
// FOLD-NOT: birsim.tensix_matmul
// FIDELITY: remark: tensix_matmul at hifi4: phases 1, 2, 3 multiply only zeros
// FIDELITY: remark: tensix_matmul at lofi: of 4294967296 outputs, 4294967296 below_hifi4 (first at index 0)
// PHASES: remark: tensix_matmul: hifi4 -> lofi: phases 1, 2, 3 removed: {{.*}}exact: 0 of 4294967296 outputs change
// PHASES: remark: tensix_matmul: hifi4 -> lofi: phases 1, 2, 3 removed: {{.*}}exact: 0 of 4194304 outputs change
// LIMIT-LABEL: func.func @splat_matmul
// LIMIT: arith.constant dense<6.000000e+01> : tensor<65536x65536xf32>
func.func @splat_matmul() -> (tensor<65536x65536xf32>, tensor<65536x65536xf32>) {
  %a = arith.constant dense<1.5> : tensor<65536x32xf32>
  %b = arith.constant dense<1.25> : tensor<32x65536xf32>
  %c = arith.constant dense<1.3125> : tensor<65536x32xf32>
  %d = arith.constant dense<1.33> : tensor<32x65536xf32>
  %x = birsim.tensix_matmul %a, %b dest fp32 src bf16, bf16 : tensor<65536x32xf32>, tensor<32x65536xf32> -> tensor<65536x65536xf32>
  %y = birsim.tensix_matmul %c, %d dest fp32 src bf16, bf16 fidelity lofi : tensor<65536x32xf32>, tensor<32x65536xf32> -> tensor<65536x65536xf32>
  return %x, %y : tensor<65536x65536xf32>, tensor<65536x65536xf32>
}

// -----

// 2048^3 of splats: one 32x2048x32 tile.
// FOLD-LABEL: func.func @splat_matmul_2048
// FOLD: arith.constant dense<{{.*}}> : tensor<2048x2048xf32>
// FOLD-NOT: birsim.tensix_matmul
// LIMIT-REMARK: remark: not folded: the matmul's 32x2048x32 multiply-adds pass the fold limit (--birsim-fold-limit=100000; docs/Decisions.md D76); left for run time
// LIMIT-LABEL: func.func @splat_matmul_2048
// LIMIT: birsim.tensix_matmul
func.func @splat_matmul_2048() -> tensor<2048x2048xf32> {
  %a = arith.constant dense<1.5> : tensor<2048x2048xf32>
  %x = birsim.tensix_matmul %a, %a dest fp32 src bf16, bf16 fidelity hifi4 : tensor<2048x2048xf32>, tensor<2048x2048xf32> -> tensor<2048x2048xf32>
  %y = birsim.tensix_matmul %a, %x dest fp32 src bf16, bf16 fidelity hifi4 : tensor<2048x2048xf32>, tensor<2048x2048xf32> -> tensor<2048x2048xf32>
  return %y : tensor<2048x2048xf32>
}

// -----

// 10^9-element splats: folded as one element, counted once.
// FOLD-LABEL: func.func @splat_eltwise
// FOLD: arith.constant dense<2.250000e+00> : tensor<1000000000xf32>
// FIDELITY: remark: tensix_eltwise mul at hifi4: phases 1, 2, 3 add nothing
// FIDELITY: remark: tensix_eltwise mul at lofi: of 1000000000 values, 1000000000 below_hifi4 (first at index 0)
func.func @splat_eltwise() -> (tensor<1000000000xf32>, tensor<1000000000xf32>) {
  %a = arith.constant dense<1.5> : tensor<1000000000xf32>
  %b = arith.constant dense<1.33> : tensor<1000000000xf32>
  %x = birsim.tensix_eltwise mul %a, %a dest fp32 src bf16 : tensor<1000000000xf32>, tensor<1000000000xf32> -> tensor<1000000000xf32>
  %y = birsim.tensix_eltwise mul %b, %b dest fp32 src bf16 fidelity lofi : tensor<1000000000xf32>, tensor<1000000000xf32> -> tensor<1000000000xf32>
  return %x, %y : tensor<1000000000xf32>, tensor<1000000000xf32>
}

// -----

// Stochastic rounding of a splat draws per element: its 4 GB of expanded
// fp32 input pass the default limit (1 GiB), so the op is left for run
// time; the analysis counts nearest-even's events of the splat, scaled.
// REMARK: remark: not folded: expanding a splat needs 4000000000 bytes, past the fold limit (--birsim-fold-limit=1073741824; docs/Decisions.md D76); left for run time
// FOLD-LABEL: func.func @stochastic
// FOLD: birsim.dma_compute
// LIMIT-REMARK: remark: not folded: expanding a splat needs 4000000000 bytes, past the fold limit
// REMARK-NOT: remark
// FIDELITY: remark: dma_compute add into 'bf16': of 1000000000 results, 1000000000 inexact (first at index 0)
func.func @stochastic() -> tensor<1000000000xbf16> {
  %x = arith.constant dense<1.00244140625> : tensor<1000000000xf32>
  %r = birsim.dma_compute add %x {rounding = #birsim.rounding<stochastic>, seed = 7 : i64} : tensor<1000000000xf32> -> tensor<1000000000xbf16>
  return %r : tensor<1000000000xbf16>
}
