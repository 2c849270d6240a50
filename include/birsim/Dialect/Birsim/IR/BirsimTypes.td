//===- BirsimTypes.td - birsim types -----------------------*- tablegen -*-===//
#ifndef BIRSIM_TYPES_TD
#define BIRSIM_TYPES_TD

include "birsim/Dialect/Birsim/IR/BirsimDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

// The bir::Dtypes MLIR has no builtin type for (SEMANTICS.md section 1).
class Birsim_Type<string name, string typeMnemonic, string dtypeName>
    : TypeDef<Birsim_Dialect, name, [MemRefElementTypeInterface]> {
  let mnemonic = typeMnemonic;
  let summary = "bir::Dtype " # dtypeName;
}

def Birsim_Float32rType : Birsim_Type<"Float32r", "float32r", "float32r"> {
  let description = [{
    The PE array's reduced-precision fp32 accumulation format: fp32 storage,
    written with round-to-nearest-even at 10 explicit mantissa bits. The
    simulator can copy it but not accumulate it.
  }];
}
def Birsim_Float4E2M1FNx4Type : Birsim_Type<"Float4E2M1FNx4",
    "float4_e2m1fn_x4", "float4_e2m1fn_x4"> {
  let description = "Four packed fp4 E2M1FN values (2 bytes); copy only.";
}
def Birsim_Float8E4M3FNx4Type : Birsim_Type<"Float8E4M3FNx4",
    "float8_e4m3fn_x4", "float8_e4m3fn_x4"> {
  let description = "Four packed float8_e4m3fn values (4 bytes); copy only.";
}
def Birsim_Float8E5M2x4Type : Birsim_Type<"Float8E5M2x4",
    "float8_e5m2_x4", "float8_e5m2_x4"> {
  let description = "Four packed float8 E5M2 values (4 bytes); copy only.";
}

#endif // BIRSIM_TYPES_TD
