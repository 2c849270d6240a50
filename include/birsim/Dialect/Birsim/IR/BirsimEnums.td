//===- BirsimEnums.td - birsim enums -----------------------*- tablegen -*-===//
#ifndef BIRSIM_ENUMS_TD
#define BIRSIM_ENUMS_TD

include "birsim/Dialect/Birsim/IR/BirsimDialect.td"
include "mlir/IR/EnumAttr.td"

// birsim::MemoryReductionOp (docs/Semantics.md section 1; the page's corrected
// numbering: min = 2, max = 3).
def Birsim_MemoryReductionOp : I32EnumAttr<"MemoryReductionOp",
    "cast_copy_or_accumulate operation", [
      I32EnumAttrCase<"copy", 0>, I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"max", 3>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_MemoryReductionOpAttr : EnumAttr<Birsim_Dialect,
    Birsim_MemoryReductionOp, "memory_reduction_op">;

// bir::AluOpType (docs/Semantics.md section 1).
def Birsim_AluOpType : I32EnumAttr<"AluOpType", "bir::AluOpType", [
    I32EnumAttrCase<"bypass", 0>, I32EnumAttrCase<"bitwise_not", 1>,
    I32EnumAttrCase<"arith_shift_left", 2>,
    I32EnumAttrCase<"arith_shift_right", 3>, I32EnumAttrCase<"add", 4>,
    I32EnumAttrCase<"subtract", 5>, I32EnumAttrCase<"mult", 6>,
    I32EnumAttrCase<"divide", 7>, I32EnumAttrCase<"max", 8>,
    I32EnumAttrCase<"min", 9>, I32EnumAttrCase<"bitwise_and", 10>,
    I32EnumAttrCase<"bitwise_or", 11>, I32EnumAttrCase<"bitwise_xor", 12>,
    I32EnumAttrCase<"logical_and", 13>, I32EnumAttrCase<"logical_or", 14>,
    I32EnumAttrCase<"logical_xor", 15>,
    I32EnumAttrCase<"logical_shift_left", 16>,
    I32EnumAttrCase<"logical_shift_right", 17>,
    I32EnumAttrCase<"is_equal", 18>, I32EnumAttrCase<"not_equal", 19>,
    I32EnumAttrCase<"is_gt", 20>, I32EnumAttrCase<"is_ge", 21>,
    I32EnumAttrCase<"is_lt", 22>, I32EnumAttrCase<"is_le", 23>,
    I32EnumAttrCase<"average", 24>, I32EnumAttrCase<"elemwise_mul", 25>,
    I32EnumAttrCase<"pow", 26>, I32EnumAttrCase<"mod", 27>,
    I32EnumAttrCase<"rsqrt", 28>, I32EnumAttrCase<"abs", 29>,
    I32EnumAttrCase<"abs_max", 30>, I32EnumAttrCase<"abs_min", 31>,
    I32EnumAttrCase<"mod_int", 32>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_AluOpTypeAttr : EnumAttr<Birsim_Dialect, Birsim_AluOpType,
    "alu_op">;

// Tenstorrent's block formats: BFP, then MX (include/birsim/Core/
// BfpFormats.def; checked against it at compile time; docs/Semantics.md
// section 5).
def Birsim_BfpFormat : I32EnumAttr<"BfpFormat", "block floating point format", [
    I32EnumAttrCase<"bfp8_b", 0>, I32EnumAttrCase<"bfp4_b", 1>,
    I32EnumAttrCase<"bfp8_a", 2>, I32EnumAttrCase<"bfp4_a", 3>,
    I32EnumAttrCase<"bfp2_b", 4>, I32EnumAttrCase<"bfp2_a", 5>,
    I32EnumAttrCase<"mxfp8_e5m2", 6>, I32EnumAttrCase<"mxfp8_e4m3", 7>,
    I32EnumAttrCase<"mxfp6_e3m2", 8>, I32EnumAttrCase<"mxfp6_e2m3", 9>,
    I32EnumAttrCase<"mxfp4", 10>, I32EnumAttrCase<"mxint8", 11>,
    I32EnumAttrCase<"mxint4", 12>, I32EnumAttrCase<"mxint2", 13>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_BfpFormatAttr : EnumAttr<Birsim_Dialect, Birsim_BfpFormat,
    "bfp_format">;

// Where a BFP conversion runs (include/birsim/Core/BfpSites.def; checked
// against it at compile time; docs/Semantics.md section 5, the device's
// bytes).
def Birsim_BfpSite : I32EnumAttr<"BfpSite", "where a BFP conversion runs", [
    I32EnumAttrCase<"host", 0>, I32EnumAttrCase<"fp32_dest", 1>,
    I32EnumAttrCase<"fp32_dest_e8m6", 2>, I32EnumAttrCase<"bf16_dest", 3>,
    I32EnumAttrCase<"bf16_dest_e8m6", 4>, I32EnumAttrCase<"fp16_dest", 5>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_BfpSiteAttr : EnumAttr<Birsim_Dialect, Birsim_BfpSite, "bfp_site">;

// tt-metal's FP8 E4M3 conversions (include/birsim/Core/TtFp8Policies.def;
// checked against it at compile time; docs/Semantics.md section 6).
def Birsim_TtFp8Policy : I32EnumAttr<"TtFp8Policy",
    "one of tt-metal's FP8 E4M3 conversions", [
    I32EnumAttrCase<"ttmetal_host", 0>, I32EnumAttrCase<"ocp_e4m3fn", 1>,
    I32EnumAttrCase<"blackhole_packer", 2>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TtFp8PolicyAttr : EnumAttr<Birsim_Dialect, Birsim_TtFp8Policy,
    "tt_fp8_policy">;

// FP8ConversionConfig (docs/Semantics.md section 4): bit 0 saturates, any
// bit of byte 1 suppresses NaNs, so NaN-suppress is one flag (0xFF00).
// Printed `fp8_config<none>`, `fp8_config<saturate | nan_suppress>`.
def Birsim_Fp8Config : I32BitEnumAttr<"Fp8Config", "FP8 conversion config", [
    I32BitEnumAttrCaseNone<"none">,
    I32BitEnumAttrCaseBit<"saturate", 0>,
    I32BitEnumAttrCase<"nan_suppress", 0xFF00>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
  let separator = " | ";
}
def Birsim_Fp8ConfigAttr : EnumAttr<Birsim_Dialect, Birsim_Fp8Config,
    "fp8_config"> {
  let assemblyFormat = "`<` $value `>`";
}

// The DMA's narrowing (docs/Semantics.md section 8).
def Birsim_Rounding : I32EnumAttr<"Rounding",
    "how the DMA narrows its fp32 result (Runtime.h's BIRSIM_ROUND_*)", [
    I32EnumAttrCase<"nearest_even", 0>, I32EnumAttrCase<"stochastic", 1>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_RoundingAttr : EnumAttr<Birsim_Dialect, Birsim_Rounding,
    "rounding"> {
  let assemblyFormat = "`<` $value `>`";
}

// The Tensix FPU's and packer's settings (include/birsim/Core/Tensix.def;
// checked against it at compile time; docs/Semantics.md section 7).
def Birsim_TensixArch : I32EnumAttr<"TensixArch", "a Tensix architecture", [
    I32EnumAttrCase<"wormhole", 0>, I32EnumAttrCase<"blackhole", 1>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TensixArchAttr : EnumAttr<Birsim_Dialect, Birsim_TensixArch,
    "tensix_arch">;
def Birsim_TensixOp : I32EnumAttr<"TensixOp", "a Tensix FPU elementwise op", [
    I32EnumAttrCase<"mul", 0>, I32EnumAttrCase<"add", 1>,
    I32EnumAttrCase<"sub", 2>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TensixOpAttr : EnumAttr<Birsim_Dialect, Birsim_TensixOp,
    "tensix_op">;
def Birsim_TensixDest : I32EnumAttr<"TensixDest", "a Tensix Dest kind", [
    I32EnumAttrCase<"fp32", 0>, I32EnumAttrCase<"bf16", 1>,
    I32EnumAttrCase<"fp16", 2>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TensixDestAttr : EnumAttr<Birsim_Dialect, Birsim_TensixDest,
    "tensix_dest">;
def Birsim_TensixSrc : I32EnumAttr<"TensixSrc", "a Tensix Src format class", [
    I32EnumAttrCase<"tf32", 0>, I32EnumAttrCase<"bf16", 1>,
    I32EnumAttrCase<"fp16", 2>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TensixSrcAttr : EnumAttr<Birsim_Dialect, Birsim_TensixSrc,
    "tensix_src">;
// The fidelity phases: a non-empty set of phases 0-3, by fidelity name
// (Tensix.def's rows) where one is that set, else by its phases
// (`phases_02` is {0, 2}, tt-metal #39627).
def Birsim_TensixFidelity : I32EnumAttr<"TensixFidelity",
    "a set of Tensix fidelity phases", [
    I32EnumAttrCase<"lofi", 0x1>, I32EnumAttrCase<"phases_1", 0x2>,
    I32EnumAttrCase<"hifi2", 0x3>, I32EnumAttrCase<"phases_2", 0x4>,
    I32EnumAttrCase<"phases_02", 0x5>, I32EnumAttrCase<"phases_12", 0x6>,
    I32EnumAttrCase<"hifi3", 0x7>, I32EnumAttrCase<"phases_3", 0x8>,
    I32EnumAttrCase<"phases_03", 0x9>, I32EnumAttrCase<"phases_13", 0xA>,
    I32EnumAttrCase<"phases_013", 0xB>, I32EnumAttrCase<"phases_23", 0xC>,
    I32EnumAttrCase<"phases_023", 0xD>, I32EnumAttrCase<"phases_123", 0xE>,
    I32EnumAttrCase<"hifi4", 0xF>]> {
  let cppNamespace = "::birsim";
  let genSpecializedAttr = 0;
}
def Birsim_TensixFidelityAttr : EnumAttr<Birsim_Dialect,
    Birsim_TensixFidelity, "tensix_fidelity">;

#endif // BIRSIM_ENUMS_TD
