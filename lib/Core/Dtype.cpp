//===- Dtype.cpp - bir::Dtype descriptor table ----------------------------===//
#include "birsim/Core/Dtype.h"

namespace birsim::core {

// SEMANTICS.md section 1 (formats) and section 4 (NaN results).
static const FloatFormat kE3M4 = {3, 4, 3, NonFinite::IEEE, 0x78, false};
static const FloatFormat kE4M3 = {4, 3, 7, NonFinite::IEEE, 0x7C, false};
static const FloatFormat kE4M3FN = {4, 3, 7, NonFinite::FiniteNaN, 0x7F, false};
static const FloatFormat kE5M2 = {5, 2, 15, NonFinite::IEEE, 0x7E, false};
static const FloatFormat kBF16 = {8, 7, 127, NonFinite::IEEE, 0x7FC0, false};
static const FloatFormat kFP16 = {5, 10, 15, NonFinite::IEEE, 0x7E00, true};
const FloatFormat kFloat32Format = {8,           23,  127, NonFinite::IEEE,
                                    0xFFC00000u, true};

using K = DtypeKind;
static const DtypeInfo kDtypes[kNumDtypes] = {
    {Dtype::uint8, "uint8", 1, K::UnsignedInt, false, false, nullptr},
    {Dtype::int8, "int8", 1, K::SignedInt, false, false, nullptr},
    {Dtype::float4_e2m1fn_x4, "float4_e2m1fn_x4", 2, K::Packed, false, false,
     nullptr},
    {Dtype::float8e3, "float8e3", 1, K::Float, true, true, &kE3M4},
    {Dtype::float8e4, "float8e4", 1, K::Float, true, true, &kE4M3},
    {Dtype::float8_e4m3fn, "float8_e4m3fn", 1, K::Float, false, true, &kE4M3FN},
    {Dtype::float8_e8m0fnu, "float8_e8m0fnu", 1, K::UnsignedInt, false, false,
     nullptr},
    {Dtype::float8e5, "float8e5", 1, K::Float, true, true, &kE5M2},
    {Dtype::float8_e4m3fn_x4, "float8_e4m3fn_x4", 4, K::Packed, false, false,
     nullptr},
    {Dtype::float8_e5m2_x4, "float8_e5m2_x4", 4, K::Packed, false, false,
     nullptr},
    {Dtype::uint16, "uint16", 2, K::UnsignedInt, false, false, nullptr},
    {Dtype::int16, "int16", 2, K::SignedInt, false, false, nullptr},
    {Dtype::bfloat16, "bfloat16", 2, K::Float, true, false, &kBF16},
    {Dtype::float16, "float16", 2, K::Float, true, false, &kFP16},
    {Dtype::uint32, "uint32", 4, K::UnsignedInt, false, false, nullptr},
    {Dtype::int32, "int32", 4, K::SignedInt, true, false, nullptr},
    {Dtype::float32, "float32", 4, K::Float32, true, false, &kFloat32Format},
    {Dtype::float32r, "float32r", 4, K::Float32r, false, false,
     &kFloat32Format},
    {Dtype::uint64, "uint64", 8, K::UnsignedInt, false, false, nullptr},
    {Dtype::int64, "int64", 8, K::SignedInt, true, false, nullptr},
};

const DtypeInfo *lookupDtype(int dtype) {
  if (dtype < 0 || dtype >= kNumDtypes)
    return nullptr;
  return &kDtypes[dtype];
}

} // namespace birsim::core
