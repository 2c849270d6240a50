//===- AbiTableTest.cpp - RuntimeFunctions.def matches Runtime.h ----------===//
//
// The table of every exported function must declare exactly the C
// signatures of Runtime.h: a drift fails this file's compilation, so
// neither a lowered program nor a binding built from birsim_function_info
// can call a different ABI.
//
//===----------------------------------------------------------------------===//
#include "birsim/Runtime/Runtime.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Enums.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Tensix.h"
#include "birsim/Core/TtFp8.h"

#include "gtest/gtest.h"

#include <climits>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
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

// Every name and lookup function of the ABI at its table's bounds (issue
// 64: `birsim_bfp_mixed_metric_name`'s range check could become
// `metric >= 0 || ...`, an out-of-bounds read, and every test passed).
// A lookup is a row that takes a table number (role Index, Kind, Dtype,
// Where, Metric, SrcFormat or DestKind) and no element count; each needs a
// case below, so a new one cannot go untested. Each case answers at every
// number of its table (the core's rows, read from the .def files) and at
// none of -1, the first number past the table and large numbers, and
// writes no result for those.
struct LookupCase {
  std::string function;
  int bound;                          // the first number past the table
  std::function<bool(int)> answers;   // the function's answer is not "none"
  std::function<bool(int)> inTable;   // default: 0 <= number < bound
  bool rowMayAnswerNone = false;      // a row's answer may be "none" (0)
};

std::vector<LookupCase> lookupCases() {
  using namespace birsim::core;
  int functions = 0;
#define BIRSIM_RUNTIME_FUNCTION(...) ++functions;
#include "birsim/Runtime/RuntimeFunctions.def"
  std::set<int> dmaDtypes;
#define BIRSIM_DMA_DTYPE(Enumerator, NkiName)                                  \
  dmaDtypes.insert(int(Dtype::Enumerator));
#include "birsim/Core/DmaDtypes.def"
  std::set<int> fidelities;
  for (const TensixNamedRow &row : kTensixFidelityTable)
    fidelities.insert(row.number);
  auto unsignedUntouched = [](auto query) {
    return [query](int i) {
      unsigned bits = 0xDEADBEEF;
      bool answered = query(i, &bits);
      EXPECT_TRUE(answered || bits == 0xDEADBEEF) << "wrote a result for " << i;
      return answered;
    };
  };
  int formats = kNumBfpFormats;
  const uint32_t block[32] = {0x3F800000, 0x40000000};
  std::vector<LookupCase> cases = {
      {"birsim_function_info", functions,
       [](int i) {
         struct birsim_function_info info {};
         bool ok = birsim_function_info(i, &info, sizeof info) == BIRSIM_OK;
         EXPECT_TRUE(ok || info.name == nullptr);
         return ok;
       }},
      {"birsim_dtype_name", kNumDtypes,
       [](int i) { return birsim_dtype_name(i) != nullptr; }},
      {"birsim_dtype_size", kNumDtypes,
       [](int i) { return birsim_dtype_size(i) != 0; }},
      {"birsim_dtype_info", kNumDtypes,
       [](int i) {
         struct birsim_dtype_info info {};
         bool ok = birsim_dtype_info(i, &info, sizeof info) == BIRSIM_OK;
         EXPECT_TRUE(ok || info.name == nullptr);
         return ok;
       }},
      {"birsim_memory_reduction_op_name", kNumMemoryReductionOps,
       [](int i) { return birsim_memory_reduction_op_name(i) != nullptr; }},
      {"birsim_alu_op_type_name", kNumAluOpTypes,
       [](int i) { return birsim_alu_op_type_name(i) != nullptr; }},
      {"birsim_alu_op_to_memory_reduction", kNumAluOpTypes,
       [](int i) {
         int op = -7;
         bool ok = birsim_alu_op_to_memory_reduction(i, &op) == BIRSIM_OK;
         EXPECT_TRUE(ok || op == -7);
         return ok;
       },
       [](int i) {
         MemoryReductionOp op;
         return aluOpTypeName(i) && aluOpToMemoryReduction(i, op).ok();
       }},
      {"birsim_fp8_config_flag", int(std::size(kFp8ConfigFlags)),
       unsignedUntouched([](int i, unsigned *bits) {
         return birsim_fp8_config_flag(i, bits) != nullptr;
       })},
      {"birsim_bfp_format_name", formats,
       [](int i) { return birsim_bfp_format_name(i) != nullptr; }},
      {"birsim_bfp_exponent_kind", formats,
       [](int i) { return birsim_bfp_exponent_kind(i) != nullptr; }},
      {"birsim_bfp_mantissa_bits", formats,
       [](int i) { return birsim_bfp_mantissa_bits(i) != 0; }, nullptr,
       true}, // mxint2 has none
      {"birsim_bfp_significant_bits", formats,
       [](int i) { return birsim_bfp_significant_bits(i) != 0; }},
      {"birsim_bfp_datum_bits", formats,
       [](int i) { return birsim_bfp_datum_bits(i) != 0; }},
      {"birsim_bfp_tile_bytes", formats,
       [](int i) { return birsim_bfp_tile_bytes(i) != 0; }},
      {"birsim_bfp_packed_tile_bytes", formats,
       [](int i) { return birsim_bfp_packed_tile_bytes(i, 32, 32) != 0; }},
      {"birsim_bfp_page_bytes", formats,
       [](int i) { return birsim_bfp_page_bytes(i, 32, 32, 32) != 0; }},
      {"birsim_bfp_page_bytes_checked", formats,
       [](int i) {
         size_t bytes = 12345;
         bool ok = birsim_bfp_page_bytes_checked(i, 32, 32, 32, &bytes) ==
                   BIRSIM_OK;
         EXPECT_TRUE(ok || bytes == 12345);
         return ok;
       }},
      {"birsim_bfp_convert_float_bits", formats,
       [](int i) { return birsim_bfp_convert_float_bits(i, 0x3F800000, 127); },
       nullptr, true},
      {"birsim_bfp_convert_datum", formats,
       [](int i) { return birsim_bfp_convert_datum(i, 0x01, 127) != 0; },
       nullptr, true},
      {"birsim_bfp_block_shared_exponent", formats,
       [block](int i) { return birsim_bfp_block_shared_exponent(i, block); }},
      {"birsim_bfp_flag", int(std::size(kBfpFlags)),
       unsignedUntouched([](int i, unsigned *bits) {
         return birsim_bfp_flag(i, bits) != nullptr;
       })},
      {"birsim_bfp_flag_page_bytes", int(std::size(kBfpFlags)),
       [](int i) { return birsim_bfp_flag_page_bytes(i) != 0; }, nullptr,
       true}, // faces selects none
      {"birsim_bfp_site_name", kNumBfpSites,
       [](int i) { return birsim_bfp_site_name(i) != nullptr; }},
      {"birsim_fidelity_set_device_site", kNumBfpSites,
       [](int i) {
         int before = birsim_fidelity_device_site();
         bool ok = birsim_fidelity_set_device_site(i) == BIRSIM_OK;
         EXPECT_EQ(birsim_fidelity_device_site(), ok ? i : before);
         birsim_fidelity_set_device_site(before);
         return ok;
       },
       [](int i) { return lookupBfpSite(i) && lookupBfpSite(i)->onDevice(); }},
      {"birsim_fidelity_family_name", kNumFidelityFamilies,
       [](int i) { return birsim_fidelity_family_name(i) != nullptr; }},
      {"birsim_fidelity_event_key", kNumFidelityEvents,
       [](int i) {
         int family = -7;
         bool ok = birsim_fidelity_event_key(i, &family) != nullptr;
         EXPECT_TRUE(ok || family == -7);
         return ok;
       }},
      {"birsim_nki_dtype_name", kNumDtypes,
       [](int i) { return birsim_nki_dtype_name(i) != nullptr; },
       [dmaDtypes](int i) { return dmaDtypes.count(i) != 0; }},
      {"birsim_tt_fp8_policy_name", kNumTtFp8Policies,
       [](int i) { return birsim_tt_fp8_policy_name(i) != nullptr; }},
      {"birsim_tensix_src_bits", int(std::size(kTensixSrcTable)),
       [](int i) { return birsim_tensix_src_bits(i) != 0; }},
      {"birsim_tensix_dest_dtype", int(std::size(kTensixDestTable)),
       [](int i) { return birsim_tensix_dest_dtype(i) != -1; }},
      {"birsim_bfp_mixed_code_name", int(kNumBfpMixedCodes),
       [](int i) { return birsim_bfp_mixed_code_name(i) != nullptr; }},
      {"birsim_bfp_mixed_metric_name", int(std::size(kBfpMixedMetricNames)),
       [](int i) { return birsim_bfp_mixed_metric_name(i) != nullptr; }},
      {"birsim_tensix_sfpu_op_name", 2,
       [](int i) { return birsim_tensix_sfpu_op_name(i) != nullptr; }},
      // birsim_tensix_name: the table number, then each table's numbers.
      {"birsim_tensix_name", 5,
       [](int i) { return birsim_tensix_name(i, 0) != nullptr ||
                          birsim_tensix_name(i, 1) != nullptr; }},
  };
  int tensixRows[] = {int(std::size(kTensixArchTable)),
                      int(std::size(kTensixOpTable)),
                      int(std::size(kTensixDestTable)),
                      int(std::size(kTensixSrcTable)), 16};
  for (int table = 0; table < 5; ++table)
    cases.push_back(
        {"birsim_tensix_name", tensixRows[table],
         [table](int i) { return birsim_tensix_name(table, i) != nullptr; },
         table == 4 ? std::function<bool(int)>([fidelities](int i) {
           return fidelities.count(i) != 0;
         })
                    : nullptr});
  return cases;
}

TEST(AbiTable, EveryLookupAtItsBounds) {
  std::vector<LookupCase> cases = lookupCases();
  std::set<std::string> covered;
  for (const LookupCase &c : cases)
    covered.insert(c.function);
  // Every lookup row of RuntimeFunctions.def has a case.
  const std::set<std::string> tableRoles = {"Index",  "Kind",      "Dtype",
                                            "Where",  "Metric",    "SrcFormat",
                                            "DestKind"};
  const std::set<std::string> countRoles = {"Count", "DstCount", "Rows",
                                            "Cols", "Dst"};
  std::set<std::string> lookups;
  for (int f = 0; f < birsim_function_count(); ++f) {
    struct birsim_function_info info;
    ASSERT_EQ(birsim_function_info(f, &info, sizeof info), BIRSIM_OK);
    bool table = false, bulk = false;
    for (uint32_t p = 0; p < info.param_count; ++p) {
      table |= tableRoles.count(info.params[p].role) != 0;
      bulk |= countRoles.count(info.params[p].role) != 0;
    }
    if (table && !bulk) {
      lookups.insert(info.name);
      EXPECT_TRUE(covered.count(info.name))
          << info.name << " looks up a table number: give it a case in "
          << "lookupCases() (-1, the table's end and large numbers)";
    }
  }
  for (const std::string &name : covered)
    EXPECT_TRUE(lookups.count(name)) << name << " is no lookup row";
  for (const LookupCase &c : cases) {
    ASSERT_GT(c.bound, 0) << c.function;
    auto inTable = [&](int i) {
      return c.inTable ? c.inTable(i) : i >= 0 && i < c.bound;
    };
    std::vector<int> numbers = {INT_MIN, INT_MIN + 1, -65536, INT_MAX,
                                INT_MAX - 1, 1 << 20, 65536, 255, 256};
    for (int i = -3; i <= c.bound + 3; ++i)
      numbers.push_back(i);
    for (int i : numbers) {
      bool answered = c.answers(i);
      if (inTable(i))
        EXPECT_TRUE(answered || c.rowMayAnswerNone)
            << c.function << "(" << i << ") answers nothing for a row";
      else
        EXPECT_FALSE(answered)
            << c.function << "(" << i << ") answers past its table of "
            << c.bound;
    }
  }
}

} // namespace
