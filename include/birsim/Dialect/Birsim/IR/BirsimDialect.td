//===- BirsimDialect.td - birsim dialect definition --------*- tablegen -*-===//
#ifndef BIRSIM_DIALECT_TD
#define BIRSIM_DIALECT_TD

include "mlir/IR/OpBase.td"

def Birsim_Dialect : Dialect {
  let name = "birsim";
  let cppNamespace = "::birsim";
  let summary = "Bit-exact BIR simulator arithmetic and Tenstorrent BFP tiles";
  let description = [{
    Ops whose results are, bit for bit, what the AWS Neuron BIR simulator's
    `cast_copy_or_accumulate` kernel, collective reducer and whole-tensor
    cast engine produce, plus Tenstorrent BFP tile packing. Verifiers mirror
    the simulator's legality; folders (dense, splat, scalar and
    `dense_resource` constants) and the runtime both call the same C++ core
    (`birsim/Core`). The rules are docs/Semantics.md's; diagnostics cite its
    sections.

    Element types: a builtin type where MLIR has one, `!birsim.float32r` and
    the packed `!birsim.float4_e2m1fn_x4`, `!birsim.float8_e4m3fn_x4`,
    `!birsim.float8_e5m2_x4` otherwise (the dtype table of
    docs/Semantics.md section 1; `iN` and `siN` are the same dtype).

    Buffer forms and lowering: One-Shot Bufferize turns each tensor op into
    its `_into` form (`reduce` and `collective_reduce` in place in the
    first operand's buffer, `cast`, `bfp_pack` and `bfp_unpack` into a new
    one); `--convert-birsim-to-llvm` turns every op on memrefs, scalars or
    vectors into one call of `include/birsim/Runtime/RuntimeFunctions.def`
    (memrefs as aligned pointer and element count, scalars and vectors
    through stack slots in the entry block), then
    `birsim_check_status(status, "<op name> at <location>")`, which
    prints `birsim runtime error in <op name> at <file:line:col>:
    <message>` and exits with status 1 (no crash report from the host) on
    a run-time error the verifier cannot see (an out-of-range scatter
    index), before any byte is written. The `birsim-to-llvm` pipeline runs
    canonicalize, bufferization and this lowering end to end; upstream
    `--convert-to-llvm` picks birsim up through its
    `ConvertToLLVMPatternInterface`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// The bir::Dtype an element type stands for (Dtypes.def), or nullopt.
    std::optional<::birsim::core::Dtype> lookupDtype(::mlir::Type type) const;
    /// This context's fold limit (BirsimSizes.h, docs/Decisions.md D76).
    uint64_t getFoldLimit() const {
      return foldLimit.load(std::memory_order_relaxed);
    }
    void setFoldLimit(uint64_t bytes) {
      foldLimit.store(bytes, std::memory_order_relaxed);
    }

  private:
    void buildDtypeTable();
    ::llvm::DenseMap<::mlir::Type, ::birsim::core::Dtype> dtypeOfType;
    std::atomic<uint64_t> foldLimit;
  }];
}

// Every birsim op: its static shapes have element counts and byte sizes
// that fit in int64 (BirsimSizes.h; docs/Decisions.md D76).
def Birsim_SizedShapes : NativeOpTrait<"SizedShapes"> {
  let cppNamespace = "::birsim::OpTrait";
}

class Birsim_Op<string mnemonic, list<Trait> traits = []>
    : Op<Birsim_Dialect, mnemonic, !listconcat(traits, [Birsim_SizedShapes])>;

#endif // BIRSIM_DIALECT_TD
