//===- AbiTableTest.cpp - RuntimeFunctions.def matches Runtime.h ----------===//
//
// The table of every exported function must declare exactly the C
// signatures of Runtime.h: a drift fails this file's compilation, so
// neither a lowered program nor a binding built from birsim_function_info
// can call a different ABI.
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
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
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

// birsim_function_info gives every row, in order, as the table spells it.
TEST(AbiTable, FunctionInfoGivesEveryRow) {
  struct Row {
    const char *name, *result;
    std::vector<std::string> types, roles;
    bool lowered, counted;
  };
  std::vector<Row> rows;
#define BIRSIM_ARG(CType, Role) , #CType "|" #Role
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
  {                                                                            \
    std::vector<std::string> args = {"" __VA_ARGS__};                          \
    Row row{#Name, #Result, {}, {}, std::string(#Lowered) == "Lowered",       \
            std::string(#Counts) == "Counted"};                                \
    for (size_t i = 1; i < args.size(); ++i) {                                 \
      row.types.push_back(args[i].substr(0, args[i].find('|')));               \
      row.roles.push_back(args[i].substr(args[i].find('|') + 1));              \
    }                                                                          \
    rows.push_back(row);                                                       \
  }
#include "birsim/Runtime/RuntimeFunctions.def"
  ASSERT_EQ(birsim_function_count(), int(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    struct birsim_function_info info;
    ASSERT_EQ(birsim_function_info(int(i), &info, sizeof info), BIRSIM_OK);
    EXPECT_STREQ(info.name, rows[i].name);
    EXPECT_STREQ(info.result.c_type, rows[i].result);
    EXPECT_EQ(info.lowered, rows[i].lowered);
    EXPECT_EQ(info.counted, rows[i].counted);
    ASSERT_EQ(info.param_count, rows[i].types.size()) << info.name;
    for (size_t p = 0; p < rows[i].types.size(); ++p) {
      EXPECT_EQ(info.params[p].c_type, rows[i].types[p]) << info.name;
      EXPECT_EQ(info.params[p].role, rows[i].roles[p]) << info.name;
      std::string kind = info.params[p].kind;
      EXPECT_EQ(kind == "pointer" || kind == "string",
                rows[i].types[p].find('*') != std::string::npos ||
                    rows[i].types[p] == "birsim_status_handler")
          << info.name;
    }
  }
  // The kinds of a few spellings.
  struct birsim_function_info info;
  ASSERT_EQ(birsim_function_info(0, &info, sizeof info), BIRSIM_OK);
  EXPECT_STREQ(info.name, "birsim_function_count");
  EXPECT_STREQ(info.result.kind, "signed");
  EXPECT_EQ(info.result.bytes, sizeof(int));
  // Misuse: a status, the message, nothing written.
  struct birsim_function_info untouched{};
  EXPECT_EQ(birsim_function_info(int(rows.size()), &untouched, sizeof untouched),
            BIRSIM_EINVAL);
  EXPECT_NE(std::string(birsim_last_error()).find("no runtime function"),
            std::string::npos);
  EXPECT_EQ(untouched.name, nullptr);
  EXPECT_EQ(birsim_function_info(-1, &untouched, sizeof untouched),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_function_info(0, &untouched, sizeof untouched - 1),
            BIRSIM_EINVAL);
  EXPECT_EQ(birsim_function_info(0, nullptr, sizeof untouched), BIRSIM_EINVAL);
  EXPECT_EQ(untouched.name, nullptr);
}

// The BFP flags by number, as BfpFlags.def and Runtime.h's macros have them.
TEST(AbiTable, BfpFlagQuery) {
  unsigned bits = 0;
  EXPECT_STREQ(birsim_bfp_flag(0, &bits), "faces");
  EXPECT_EQ(bits, BIRSIM_BFP_FACES);
  EXPECT_STREQ(birsim_bfp_flag(1, &bits), "transpose");
  EXPECT_EQ(bits, BIRSIM_BFP_TRANSPOSE);
  EXPECT_STREQ(birsim_bfp_flag(2, &bits), "exp_search");
  EXPECT_EQ(bits, BIRSIM_BFP_EXP_SEARCH);
  EXPECT_STREQ(birsim_bfp_flag(3, &bits), "page32");
  EXPECT_EQ(bits, BIRSIM_BFP_PAGE32);
  EXPECT_STREQ(birsim_bfp_flag(4, &bits), "page64");
  EXPECT_EQ(bits, BIRSIM_BFP_PAGE64);
  EXPECT_EQ(birsim_bfp_flag(5, &bits), nullptr);
  EXPECT_EQ(birsim_bfp_flag(-1, nullptr), nullptr);
}

} // namespace
