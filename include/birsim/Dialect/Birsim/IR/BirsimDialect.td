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
    cast engine produce, plus Tenstorrent BFP8/BFP4 tile packing. Verifiers
    mirror the simulator's legality; folders and the runtime both call the
    same C++ core (`birsim/Core`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// The bir::Dtype an element type stands for (Dtypes.def), or nullopt.
    std::optional<::birsim::core::Dtype> lookupDtype(::mlir::Type type) const;

  private:
    void buildDtypeTable();
    ::llvm::DenseMap<::mlir::Type, ::birsim::core::Dtype> dtypeOfType;
  }];
}

class Birsim_Op<string mnemonic, list<Trait> traits = []>
    : Op<Birsim_Dialect, mnemonic, traits>;

#endif // BIRSIM_DIALECT_TD
