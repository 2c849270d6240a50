//===- AbiTableTest.cpp - RuntimeFunctions.def matches Runtime.h ----------===//
//
// The lowering's table of runtime calls must declare exactly the C
// signatures of Runtime.h: a drift fails this file's compilation, so a
// lowered program can never link against a different ABI.
//
//===----------------------------------------------------------------------===//
#include "birsim/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <string>
#include <type_traits>
#include <vector>

namespace {

template <typename Result, typename... Params>
using FunctionType = Result(Params...);

// `FunctionType<Result , P1 , P2 ...>`: each BIRSIM_ARG supplies its comma.
#define BIRSIM_ARG(CType, Role) , CType
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, ...)                             \
  static_assert(std::is_same_v<decltype(Name),                                 \
                               FunctionType<Result __VA_ARGS__>>,              \
                "RuntimeFunctions.def row " #Name " differs from Runtime.h");
#include "birsim/Runtime/RuntimeFunctions.def"

// Every row names an exported function (it also links, above).
TEST(AbiTable, RowsNameExportedFunctions) {
  std::vector<std::string> names;
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, ...)                                     \
  names.push_back(#Name);                                                      \
  EXPECT_NE(reinterpret_cast<void *>(&Name), nullptr);
#include "birsim/Runtime/RuntimeFunctions.def"
  EXPECT_EQ(names.size(), 7u);
}

} // namespace
