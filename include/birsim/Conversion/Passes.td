//===- Passes.td - birsim conversion passes ----------------*- tablegen -*-===//
#ifndef BIRSIM_CONVERSION_PASSES_TD
#define BIRSIM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertBirsimToLLVMPass : Pass<"convert-birsim-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower birsim ops to calls into libbirsim_runtime.so";
  let description = [{
    Every birsim op on memrefs, scalars or vectors becomes a call to the
    fixed C ABI of `libbirsim_runtime.so` (a row of
    `include/birsim/Runtime/RuntimeFunctions.def`), followed by
    `birsim_check_status(status, "<op name>")`, which prints
    `birsim_last_error()` and aborts on a non-zero status. Memrefs pass their
    aligned pointer and element count; scalars and vectors pass their raw
    bits through stack slots. Tensor-level ops must be bufferized first (the
    `birsim-to-llvm` pipeline does so). Other dialects are left alone; the
    upstream `convert-to-llvm` also picks birsim up through its
    `ConvertToLLVMPatternInterface`.
  }];
  let options = [
    Option<"fidelityCounters", "fidelity-counters", "bool", "false",
           "Precede each counted call (the Counted rows of "
           "RuntimeFunctions.def) with birsim_fidelity_site(\"<op location>\"): the program counts "
           "what the simulator's numerics do to values and prints one line "
           "per call site at exit (docs/Fidelity.md)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
