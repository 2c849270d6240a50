//===- DtypeRows.h - the unit tests' view of the dtype table ----*- C++ -*-===//
//
// Tests iterate Dtypes.def's rows by kind or reduction, so a new row is
// tested (or fails to build, Oracle.h) instead of being skipped.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_TEST_DTYPEROWS_H
#define BIRSIM_TEST_DTYPEROWS_H

#include "birsim/Core/Dtype.h"

#include <vector>

namespace birsim::test {

/// The dtypes whose descriptor satisfies `pred`, in table order.
template <typename Pred> std::vector<core::Dtype> dtypesWhere(Pred pred) {
  std::vector<core::Dtype> rows;
  for (int d = 0; d < core::kNumDtypes; ++d)
    if (pred(*core::lookupDtype(d)))
      rows.push_back(core::Dtype(d));
  return rows;
}

/// The narrow floats: fp8, bf16, fp16 (DtypeKind::Float).
inline std::vector<core::Dtype> narrowFloats() {
  return dtypesWhere(
      [](const core::DtypeInfo &d) { return d.kind == core::DtypeKind::Float; });
}

/// The dtypes reducing as `reduction` (docs/Semantics.md section 3).
inline std::vector<core::Dtype> reducingAs(core::Reduction reduction) {
  return dtypesWhere(
      [&](const core::DtypeInfo &d) { return d.reduction == reduction; });
}

} // namespace birsim::test

#endif // BIRSIM_TEST_DTYPEROWS_H
