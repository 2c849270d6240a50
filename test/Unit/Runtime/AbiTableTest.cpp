//===- AbiTableTest.cpp - RuntimeFunctions.def matches Runtime.h ----------===//
//
// The lowering's table of runtime calls must declare exactly the C
// signatures of Runtime.h: a drift fails this file's compilation, so a
// lowered program can never link against a different ABI.
//
//===----------------------------------------------------------------------===//
#include "birsim/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <typename Result, typename... Params>
using FunctionType = Result(Params...);

// `FunctionType<Result , P1 , P2 ...>`: each BIRSIM_ARG supplies its comma.
#define BIRSIM_ARG(CType, Role) , CType
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Counts, ...)                     \
  static_assert(std::is_same_v<decltype(Name),                                 \
                               FunctionType<Result __VA_ARGS__>>,              \
                "RuntimeFunctions.def row " #Name " differs from Runtime.h");
#include "birsim/Runtime/RuntimeFunctions.def"

// struct birsim_fidelity_counts holds exactly the families and keys of
// Fidelity.def, each a uint64_t, in its order.
enum FidelityField : size_t {
#define BIRSIM_FIDELITY_FAMILY(Family) Family##_elements,
#define BIRSIM_FIDELITY_EVENT(Family, Key) Family##_##Key,
#include "birsim/Core/Fidelity.def"
  kFidelityFields
};
#define BIRSIM_FIELD_AT(Family, Field)                                         \
  static_assert(std::is_same_v<decltype(birsim_fidelity_counts::Family.Field), \
                               uint64_t> &&                                    \
                    offsetof(birsim_fidelity_counts, Family.Field) ==          \
                        Family##_##Field * sizeof(uint64_t),                   \
                "Fidelity.def " #Family "." #Field " differs from Runtime.h");
#define BIRSIM_FIDELITY_FAMILY(Family) BIRSIM_FIELD_AT(Family, elements)
#define BIRSIM_FIDELITY_EVENT(Family, Key) BIRSIM_FIELD_AT(Family, Key)
#include "birsim/Core/Fidelity.def"
#undef BIRSIM_FIELD_AT
static_assert(sizeof(birsim_fidelity_counts) ==
                  kFidelityFields * sizeof(uint64_t),
              "Runtime.h's birsim_fidelity_counts has fields Fidelity.def "
              "does not list");

// Every row names an exported function (it also links, above).
TEST(AbiTable, RowsNameExportedFunctions) {
  std::vector<std::string> names;
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, ...)                                     \
  names.push_back(#Name);                                                      \
  EXPECT_NE(reinterpret_cast<void *>(&Name), nullptr);
#include "birsim/Runtime/RuntimeFunctions.def"
  size_t rows = 0;
#define BIRSIM_RUNTIME_FUNCTION(...) ++rows;
#include "birsim/Runtime/RuntimeFunctions.def"
  EXPECT_EQ(names.size(), rows);
  EXPECT_GT(rows, 0u);
}

} // namespace
