// A pipeline nested on an op its passes do not run on is an error, never
// an abort of birsim-opt (LLVM ERROR: Can't add pass ... restricted to
// 'builtin.module', exit 134, before; D68). `not` fails on a crash.
// RUN: not birsim-opt %s --pass-pipeline='builtin.module(func.func(birsim-to-llvm))' 2>&1 | FileCheck %s --check-prefix=FUNC
// RUN: not birsim-opt %s --pass-pipeline='builtin.module(gpu.module(birsim-to-llvm))' 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not birsim-opt %s --pass-pipeline='builtin.module(any(birsim-to-llvm))' 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: not birsim-opt %s -p 'builtin.module(func.func(sparsifier))' 2>&1 | FileCheck %s --check-prefix=SPARSE
// RUN: not birsim-opt %s --pass-pipeline='builtin.module(inline{default-pipeline=sparsifier})' 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not birsim-opt %s --pass-pipeline='builtin.module(nonesuch(cse))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: birsim-opt %s --pass-pipeline='builtin.module(birsim-to-llvm)' | FileCheck %s --check-prefix=MODULE

// FUNC: birsim-opt: invalid pass pipeline 'builtin.module(func.func(birsim-to-llvm))': pipeline 'birsim-to-llvm' cannot run nested on 'func.func': it adds pass 'one-shot-bufferize', which runs on 'builtin.module' only
// GPU: pipeline 'birsim-to-llvm' cannot run nested on 'gpu.module'
// ANY: pipeline 'birsim-to-llvm' cannot run nested on 'any': it adds pass 'one-shot-bufferize', which runs on 'builtin.module' only
// SPARSE: birsim-opt: invalid pass pipeline 'builtin.module(func.func(sparsifier))': pipeline 'sparsifier' cannot run nested on 'func.func': it adds pass 'sparsification-and-bufferization', which runs on 'builtin.module' only
// OPTIONS: pipeline 'sparsifier' in the options of 'inline' is refused: MLIR nests it on an op the text does not show, where its pass 'sparsification-and-bufferization' may not run (it runs on 'builtin.module' only); run it on its anchor outside the options
// UNKNOWN: 'nonesuch' is not a registered operation
// MODULE: llvm.call @birsim_cast

func.func @f(%x: tensor<2xf32>) -> tensor<2xbf16> {
  %y = birsim.cast %x : tensor<2xf32> to tensor<2xbf16>
  return %y : tensor<2xbf16>
}
