//===- BirsimInterfaces.td - birsim op interfaces -----------*- tablegen -*-===//
#ifndef BIRSIM_INTERFACES_TD
#define BIRSIM_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Birsim_BfpOpInterface : OpInterface<"BfpOpInterface"> {
  let cppNamespace = "::birsim";
  let description = [{
    One of the BFP family (docs/Semantics.md section 5): a pack or an
    unpack, in the tile form or the matrix form, on tensors or on buffers.
    What the verifier, the folders, the lowering, the fidelity pass and
    bufferization need of it is the core's description of the call
    (`bfpCallOf`, core::BfpCall), read from these methods and the
    attributes named after the BFP flags (BfpFlags.def).
  }];
  let methods = [
    InterfaceMethod<"The BFP format.", "::birsim::BfpFormat", "getFormat">,
    InterfaceMethod<"The unpacked side: tiles (N x R x C) or a matrix.",
                    "::mlir::Value", "getValues">,
    InterfaceMethod<"The packed side: N x bytes of i8.", "::mlir::Value",
                    "getPacked">,
    InterfaceMethod<"Whether it packs the values (else unpacks).", "bool",
                    "isPack">,
    InterfaceMethod<"Whether it is a matrix form (else a tile form).", "bool",
                    "isMatrixForm">,
  ];
  let verify = [{ return ::birsim::verifyBfpOp($_op); }];
}

// A value-level op whose buffer form is the op named `<mnemonic>_into`,
// with the input and a destination buffer as operands and the same
// attributes (BufferizableOpInterfaceImpl.cpp bufferizes every such op).
def Birsim_HasBufferForm : NativeOpTrait<"HasBufferForm"> {
  let cppNamespace = "::birsim::OpTrait";
}

#endif // BIRSIM_INTERFACES_TD
