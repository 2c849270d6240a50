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
    `birsim_check_status(status, "<op name> at <location>")`, which prints
    `birsim_last_error()` and exits with status 1 on a non-zero status. Memrefs pass their
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
           "per call site at exit (docs/Fidelity.md)">,
    Option<"fidelityDeviceSite", "fidelity-device-site", "std::string",
           "\"fp32_dest\"",
           "With fidelity-counters, the device site (a BFP `at` value) "
           "bfp_pack.device_differs compares host packs with">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def BirsimVerifyLoweredPass : Pass<"birsim-verify-lowered", "::mlir::ModuleOp"> {
  let summary = "Fail when an op outside the LLVM dialect remains";
  let description = [{
    The last pass of `birsim-to-llvm`: a module whose ops are not all in
    the `llvm` dialect cannot be translated or run, so each op that remains
    is an error naming it, and one of the ops `--convert-to-birsim` maps
    (`arith` casts and adds, `tosa.cast`, `linalg` ops) says to run that
    first (docs/Conversions.md).
  }];
}

// Options every to-birsim conversion shares: the policy it maps with.
defvar Birsim_Fp8ConfigOption = Option<"fp8Config", "fp8-config", "std::string",
    "\"saturate\"",
    "The FP8ConversionConfig of the birsim.cast ops made (`none`, "
    "`saturate`, `nan_suppress`, `saturate|nan_suppress`; default the "
    "cast engine's, saturate; docs/Semantics.md section 4)">;

defvar Birsim_ReduceAddOption = Option<"reduceAdd", "reduce-add", "bool",
    "false", "Map arith.addf/addi on the reducing dtypes to birsim.reduce add">;
defvar Birsim_IntCastsOption = Option<"intCasts", "int-casts", "bool", "false",
    "Map arith.sitofp and arith.fptosi(math.roundeven) to birsim.cast">;

def ConvertArithToBirsimPass : Pass<"convert-arith-to-birsim"> {
  let summary = "Map arith casts (and, on request, adds) to birsim ops";
  let description = [{
    Changes semantics on purpose, to the BIR simulator's numerics
    (docs/Conversions.md, "arith"):

    - `arith.truncf` / `arith.extf` between `f32`, `bf16`, `f16` and the
      fp8 types birsim has (its Dtypes.def float rows), on scalars,
      vectors and tensors, become `birsim.cast` with `fp8-config`.
      Fastmath flags do not matter; a `roundingmode` other than
      `to_nearest_even` is refused with a remark.
    - With `int-casts`: `arith.sitofp` from a signless integer that is a
      bir::Dtype becomes `birsim.cast` (through fp32, so an integer to
      bf16 can round twice), and `arith.fptosi` of `math.roundeven` of a
      value becomes `birsim.cast` of that value (round to nearest even,
      then saturate; NaN becomes the maximum, where `fptosi` gives
      poison). `arith.fptosi` alone rounds toward zero and stays;
      `uitofp`, `fptoui`, `i1` and `index` stay.
    - With `reduce-add`: `arith.addf` on the reducing float types and
      `arith.addi` on `i32`/`i64` become `birsim.reduce add` with `dst` =
      lhs and `src` = rhs: ADDSS(dst, src), so a NaN `dst` is the NaN that
      survives (docs/Semantics.md section 3).

    Ops inside a `linalg` op's region are left to
    `--convert-linalg-to-birsim`, which maps the whole op.
  }];
  let options = [Birsim_Fp8ConfigOption, Birsim_ReduceAddOption,
                 Birsim_IntCastsOption];
  let dependentDialects = ["::birsim::BirsimDialect"];
}

def ConvertTosaToBirsimPass : Pass<"convert-tosa-to-birsim"> {
  let summary = "Map tosa.cast between float types to birsim.cast";
  let description = [{
    `tosa.cast` between the float types of `--convert-arith-to-birsim`
    becomes `birsim.cast` with `fp8-config` (docs/Conversions.md, "tosa"):
    the cast engine saturates by default, where TOSA's own lowering (a plain
    `arith.truncf`) gives NaN or Inf on overflow. `tosa.cast` between
    integers (it wraps), between integers and floats, to or from
    `f8E8M0FNU` and the `f4`/`f6` types, and `tosa.add` (it broadcasts)
    stay.
  }];
  let options = [Birsim_Fp8ConfigOption];
  let dependentDialects = ["::birsim::BirsimDialect"];
}

def ConvertLinalgToBirsimPass : Pass<"convert-linalg-to-birsim"> {
  let summary = "Raise elementwise linalg ops to whole-tensor birsim ops";
  let description = [{
    A `linalg` op (generic or named) with all-parallel iterators, identity
    indexing maps, static tensor shapes and a body that is exactly one of
    the scalar ops `--convert-arith-to-birsim` maps, applied to its input
    block arguments, becomes that birsim op on the whole operands, so it
    folds as one tensor (docs/Conversions.md, "linalg"). Input `i` is the
    scalar op's operand `i`: for an add, input 0 is `dst` and input 1
    `src`. Broadcasts, captured values, dynamic shapes, reductions and
    bodies that read the init operand stay. The options are
    `--convert-arith-to-birsim`'s.
  }];
  let options = [Birsim_Fp8ConfigOption, Birsim_ReduceAddOption,
                 Birsim_IntCastsOption];
  let dependentDialects = ["::birsim::BirsimDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertToBirsimPass : Pass<"convert-to-birsim"> {
  let summary = "Map linalg, tosa and arith ops to birsim ops with the BIR "
                "simulator's numerics";
  let description = [{
    The patterns of `--convert-linalg-to-birsim`, `--convert-tosa-to-birsim`
    and `--convert-arith-to-birsim` in one walk, with one policy
    (docs/Conversions.md). Ops inside a `linalg` op are mapped only with
    their whole op. Another compiler adds the same patterns to its own set
    with `populateLinalgToBirsimPatterns`, `populateTosaToBirsimPatterns`
    and `populateArithToBirsimPatterns`
    (`birsim/Conversion/ToBirsim/ToBirsim.h`).
  }];
  let options = [Birsim_Fp8ConfigOption, Birsim_ReduceAddOption,
                 Birsim_IntCastsOption];
  let dependentDialects = ["::birsim::BirsimDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif
