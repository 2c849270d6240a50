// Debian's stock mlir-opt loads BirsimPlugin.so as a dialect and a pass
// plugin: it parses birsim IR, folds it, and lowers it with the
// birsim-to-llvm pipeline and the convert-birsim-to-llvm pass.
// RUN: mlir-opt --load-dialect-plugin=%birsim_plugin %s | FileCheck %s --check-prefix=PARSE
// RUN: mlir-opt --load-dialect-plugin=%birsim_plugin --load-pass-plugin=%birsim_plugin %s \
// RUN:   --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=FOLD
// RUN: mlir-opt --load-dialect-plugin=%birsim_plugin --load-pass-plugin=%birsim_plugin %s \
// RUN:   --pass-pipeline='builtin.module(birsim-to-llvm{fold-constants=false})' | FileCheck %s --check-prefix=LOWER
// RUN: mlir-opt --load-dialect-plugin=%birsim_plugin --load-pass-plugin=%birsim_plugin %s \
// RUN:   --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},convert-birsim-to-llvm)' \
// RUN:   | FileCheck %s --check-prefix=CONVERT
// RUN: mlir-opt --load-dialect-plugin=%birsim_plugin --load-pass-plugin=%birsim_plugin %s \
// RUN:   --pass-pipeline='builtin.module(birsim-fidelity{report=-})' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIDELITY
// The plugin links the host's shared MLIR and LLVM, not a copy of its own.
// RUN: llvm-readelf -d %birsim_plugin | FileCheck %s --check-prefix=NEEDED
// RUN: llvm-nm -D --defined-only -C %birsim_plugin | FileCheck %s --check-prefix=SYMBOLS

// FIDELITY: remark: 'f8E4M3' reduce add: 1 of 2 sums overflow to ±Inf
// FIDELITY: "sim_inf_device_saturates": 1
// PARSE: birsim.reduce add %{{.*}}, %{{.*}} : tensor<2xf8E4M3>
// E4M3 240 + 240 overflows to Inf (0x78) on the simulator; 1 + 1 = 2.
// FOLD: arith.constant dense<[0x78, 2.000000e+00]> : tensor<2xf8E4M3>
// FOLD-NOT: birsim.reduce
// LOWER: llvm.call @birsim_accumulate
// LOWER: llvm.call @birsim_check_status
// CONVERT: llvm.call @birsim_accumulate
// NEEDED: (NEEDED) {{.*}}[libMLIR.so.22
// NEEDED: (NEEDED) {{.*}}[libLLVM.so.22
// SYMBOLS-NOT: mlir::MLIRContext::MLIRContext
// SYMBOLS: mlirGetDialectPluginInfo
// SYMBOLS: mlirGetPassPluginInfo
func.func @f() -> tensor<2xf8E4M3> {
  %a = arith.constant dense<[0x77, 0x38]> : tensor<2xf8E4M3>
  %r = birsim.reduce add %a, %a : tensor<2xf8E4M3>
  return %r : tensor<2xf8E4M3>
}
