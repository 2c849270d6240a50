//===- Runtime.cpp - birsim C runtime ABI over the core -------------------===//
#include "birsim/Runtime/Runtime.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Cast.h"
#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Tensix.h"
#include "birsim/Core/Tensix/Sfpu.h"
#include "birsim/Core/Threads.h"
#include "birsim/Core/TtFp8.h"
#include "birsim/Runtime/FunctionInfo.h"

#include <cstdio>
#include <cstdlib>
#include <atomic>
#include <cstring>
#include <map>
#include <algorithm>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using namespace birsim::core;

// Runtime.h's macros are the core tables' rows.
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, Number, CMacro)                 \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#include "birsim/Core/MemoryReductionOps.def"
#define BIRSIM_BFP_FORMAT(Enumerator, Number, M, Exponent, CMacro)             \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#define BIRSIM_MX_FORMAT(Enumerator, Number, Element, CMacro)                  \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#include "birsim/Core/BfpFormats.def"

static_assert(std::size(kBfpMixedMetricNames) == 3 &&
                  BIRSIM_MIXED_MAX_ABS == int(BfpMixedMetric::maxAbs) &&
                  BIRSIM_MIXED_MEAN_ABS == int(BfpMixedMetric::meanAbs) &&
                  BIRSIM_MIXED_PCC == int(BfpMixedMetric::pcc),
              "Runtime.h's mixed BFP metrics differ from the core's");
static_assert(BIRSIM_FP8_SATURATE == kFp8Saturate &&
                  BIRSIM_FP8_NAN_SUPPRESS == kFp8NanSuppress,
              "Runtime.h's FP8 config bits differ from the core's");
#define BIRSIM_BFP_FLAG(Name, Bits, Form, PageBytes, CMacro)                   \
  static_assert(CMacro == Bits, #CMacro " differs from the core table");
#include "birsim/Core/BfpFlags.def"
#define BIRSIM_BFP_SITE(Enumerator, Number, Dest, Min, NaN, Flush, Rounding,  \
                        CMacro)                                                \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#include "birsim/Core/BfpSites.def"
#define BIRSIM_TT_FP8_POLICY(Enumerator, Number, CMacro)                       \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#include "birsim/Core/TtFp8Policies.def"
#define BIRSIM_TENSIX_ARCH(Enumerator, Number, CMacro)                         \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#define BIRSIM_TENSIX_DEST(Enumerator, Number, Bytes, Exponent, Kept, CMacro)  \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#define BIRSIM_TENSIX_SRC(Enumerator, Number, Exponent, Fraction, CMacro)      \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#define BIRSIM_TENSIX_OP(Enumerator, Number, CMacro)                           \
  static_assert(CMacro == Number, #CMacro " differs from the core table");
#define BIRSIM_TENSIX_FIDELITY(Enumerator, Phases, CMacro)                     \
  static_assert(CMacro == Phases, #CMacro " differs from the core table");
#include "birsim/Core/Tensix.def"
static_assert(BIRSIM_ENOT_DMA_DTYPE == int(ErrorCode::notDmaDtype) &&
                  BIRSIM_ROUND_NEAREST_EVEN == int(Rounding::nearestEven) &&
                  BIRSIM_ROUND_STOCHASTIC == int(Rounding::stochastic),
              "Runtime.h's DMA constants differ from the core's");
static_assert(BIRSIM_ETILE_SHAPE == int(ErrorCode::invalidTileShape) &&
                  BIRSIM_EFORMAT == int(ErrorCode::invalidFormat),
              "Runtime.h's status codes differ from the core's");

static thread_local std::string tLastError;

/// Records the status text and returns the C status code.
static int report(const Status &status) {
  if (!status.ok())
    tLastError = status.message();
  return int(status.code);
}

static int report(ErrorCode code, const char *detail) {
  return report(Status::error(code, 0, 0, detail));
}

/// A C boolean argument is 0 or 1: any other value is refused, not read as
/// true (a count or a flag word passed by mistake). `rule` names the
/// argument.
static Status checkBoolean(int value, const char *rule) {
  if (value == 0 || value == 1)
    return Status::success();
  return Status::error(ErrorCode::invalidArgument, value, 0, rule);
}

//===-- Fidelity counters (docs/Fidelity.md) ------------------------------===//

namespace {
struct FidelityCounters {
  std::atomic<bool> enabled{false};
  std::mutex mutex; // guards the rest
  FidelityCounts total;
  std::vector<std::pair<std::string, FidelityCounts>> sites; // first-seen order
  std::map<std::string, size_t> siteIndex;
  bool reportAtExit = false;
};

/// Never destroyed: calls from other atexit handlers may still count.
FidelityCounters &fidelityCounters() {
  static auto *counters = new FidelityCounters;
  return *counters;
}

thread_local const char *tFidelitySite = nullptr;

/// Prints one line per site and family that examined values (stderr).
void printFidelitySites() {
  FidelityCounters &c = fidelityCounters();
  std::lock_guard<std::mutex> lock(c.mutex);
  std::fflush(stdout);
  for (const auto &[site, counts] : c.sites)
    for (int family = 0; family < kNumFidelityFamilies; ++family) {
      if (!counts.elements[family])
        continue;
      std::fprintf(stderr, "birsim-fidelity %s %s elements=%llu",
                   site.c_str(),
                   fidelityFamilyInfo(FidelityFamily(family)).name,
                   (unsigned long long)counts.elements[family]);
      for (int e = 0; e < kNumFidelityEvents; ++e)
        if (int(fidelityEventInfo(FidelityEvent(e)).family) == family)
          std::fprintf(stderr, " %s=%llu",
                       fidelityEventInfo(FidelityEvent(e)).key,
                       (unsigned long long)counts.count[e]);
      std::fprintf(stderr, "\n");
    }
  std::fflush(stderr);
}
} // namespace

/// Runs `call` (a core bulk call taking a FidelityCounts *), counting when
/// the counters are on; a failed call counts nothing.
template <typename Call> static int counted(Call call) {
  FidelityCounters &c = fidelityCounters();
  if (!c.enabled.load(std::memory_order_relaxed))
    return report(call(nullptr));
  FidelityCounts counts;
  Status status = call(&counts);
  if (status.ok()) {
    std::lock_guard<std::mutex> lock(c.mutex);
    c.total.add(counts);
    if (const char *site = tFidelitySite) {
      auto [it, added] = c.siteIndex.emplace(site, c.sites.size());
      if (added)
        c.sites.emplace_back(site, FidelityCounts());
      c.sites[it->second].second.add(counts);
    }
  }
  return report(status);
}

extern "C" {

void birsim_fidelity_enable(int on) {
  fidelityCounters().enabled.store(on != 0, std::memory_order_relaxed);
}

int birsim_fidelity_enabled(void) {
  return fidelityCounters().enabled.load(std::memory_order_relaxed) ? 1 : 0;
}

const char *birsim_fp8_config_flag(int index, unsigned *bits) {
  if (index < 0 || index >= int(std::size(kFp8ConfigFlags)))
    return nullptr;
  if (bits)
    *bits = kFp8ConfigFlags[index].bits;
  return kFp8ConfigFlags[index].name;
}

int birsim_fidelity_counters_sized(struct birsim_fidelity_counts *out,
                                   size_t out_size) {
  if (!out || out_size % sizeof(uint64_t) != 0)
    return report(ErrorCode::invalidArgument,
                  "null counts, or a size that is not whole counters");
  FidelityCounters &c = fidelityCounters();
  struct birsim_fidelity_counts all = {};
  {
    std::lock_guard<std::mutex> lock(c.mutex);
#define BIRSIM_FIDELITY_FAMILY(Family)                                 \
  all.Family.elements = c.total.elements[int(FidelityFamily::Family)];
#define BIRSIM_FIDELITY_EVENT(Family, Key)                                     \
  all.Family.Key = c.total.count[int(FidelityEvent::Family##_##Key)];
#include "birsim/Core/Fidelity.def"
  }
  std::memcpy(out, &all, std::min(out_size, sizeof all));
  return BIRSIM_OK;
}

/// The 0.1 struct ended after bfp_pack.exponent_clamped.
constexpr size_t kFidelityCountsV1 =
    offsetof(struct birsim_fidelity_counts, bfp_pack.device_differs);

int(birsim_fidelity_counters)(struct birsim_fidelity_counts *out) {
  return birsim_fidelity_counters_sized(out, kFidelityCountsV1);
}

int birsim_fidelity_set_device_site(int where) {
  return report(setBfpCountedSite(where));
}

int birsim_fidelity_device_site(void) { return int(bfpCountedSite()); }

void birsim_fidelity_reset(void) {
  FidelityCounters &c = fidelityCounters();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.total = FidelityCounts();
  c.sites.clear();
  c.siteIndex.clear();
}

void birsim_fidelity_site(const char *site) {
  FidelityCounters &c = fidelityCounters();
  tFidelitySite = site;
  c.enabled.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.reportAtExit) {
    c.reportAtExit = true;
    std::atexit(printFidelitySites);
  }
}

int birsim_cast_copy_or_accumulate(int op, void *dst, const void *src,
                                   int dtype) {
  return counted([&](FidelityCounts *counts) {
    return castCopyOrAccumulate(op, dst, src, dtype, counts);
  });
}

int birsim_accumulate(int op, void *dst, const void *src, int dtype,
                      size_t count) {
  return counted([&](FidelityCounts *counts) {
    return accumulate(op, dst, src, dtype, count, counts);
  });
}

int birsim_accumulate_into(int op, void *out, const void *dst, const void *src,
                           int dtype, size_t count) {
  return counted([&](FidelityCounts *counts) {
    return accumulateInto(op, out, dst, src, dtype, count, counts);
  });
}

int birsim_scatter_accumulate(int op, void *dst, size_t dst_count,
                              const void *src, const int64_t *indices,
                              size_t count, int dtype) {
  return counted([&](FidelityCounts *counts) {
    return scatterAccumulate(op, dst, dst_count, src, indices, count, dtype,
                             counts);
  });
}

static Narrowing narrowingOf(unsigned fp8Config, int rounding, uint64_t seed) {
  return {fp8Config, Rounding(rounding), seed};
}

int birsim_dma_compute(int op, const void *const *srcs, const int *src_dtypes,
                       size_t num_srcs, void *dst, int dst_dtype, size_t count,
                       unsigned fp8_config, int rounding, uint64_t seed) {
  return counted([&](FidelityCounts *counts) {
    return dmaCompute(op, srcs, src_dtypes, num_srcs, dst, dst_dtype, count,
                      narrowingOf(fp8_config, rounding, seed), counts);
  });
}

int birsim_accumulate_mixed(int op, void *dst, int dst_dtype, const void *src,
                            int src_dtype, size_t count, unsigned fp8_config,
                            int rounding, uint64_t seed) {
  return counted([&](FidelityCounts *counts) {
    return accumulateMixed(op, dst, dst_dtype, src, src_dtype, count,
                           narrowingOf(fp8_config, rounding, seed), counts);
  });
}

int birsim_scatter_accumulate_mixed(int op, void *dst, size_t dst_count,
                                    int dst_dtype, const void *src,
                                    int src_dtype, const int64_t *indices,
                                    size_t count, unsigned fp8_config,
                                    int rounding, uint64_t seed) {
  return counted([&](FidelityCounts *counts) {
    return scatterAccumulateMixed(
        op, dst, dst_count, dst_dtype, src, src_dtype, indices, count,
        narrowingOf(fp8_config, rounding, seed), counts);
  });
}

const char *birsim_nki_dtype_name(int dtype) { return nkiDtypeName(dtype); }

int birsim_alu_op_to_memory_reduction(int alu_op, int *op_out) {
  if (!op_out)
    return report(ErrorCode::invalidArgument, "null op_out");
  MemoryReductionOp op;
  if (Status s = aluOpToMemoryReduction(alu_op, op))
    return report(s);
  *op_out = int(op);
  return BIRSIM_OK;
}

int birsim_collective_reduce(int alu_op, float *acc, const float *x,
                             size_t count) {
  static_assert(sizeof(float) == sizeof(uint32_t), "fp32 is 32 bits");
  return report(collectiveReduce(alu_op, reinterpret_cast<uint32_t *>(acc),
                                 reinterpret_cast<const uint32_t *>(x), count));
}

int birsim_cast(int src_dtype, const void *src, int dst_dtype, void *dst,
                size_t count, unsigned fp8_config) {
  return counted([&](FidelityCounts *counts) {
    return castBuffer(src_dtype, src, dst_dtype, dst, count, fp8_config,
                      counts);
  });
}

const char *birsim_dtype_name(int dtype) {
  const DtypeInfo *info = lookupDtype(dtype);
  return info ? info->name : nullptr;
}

size_t birsim_dtype_size(int dtype) {
  const DtypeInfo *info = lookupDtype(dtype);
  return info ? info->bytes : 0;
}

int birsim_dtype_count(void) { return kNumDtypes; }

int birsim_dtype_info(int dtype, struct birsim_dtype_info *out,
                      size_t out_size) {
  if (!out || out_size < sizeof(struct birsim_dtype_info))
    return report(ErrorCode::invalidArgument,
                  "null or smaller than struct birsim_dtype_info");
  const DtypeInfo *info = lookupDtype(dtype);
  if (!info)
    return report(Status::error(ErrorCode::unknownDtype, dtype));
  struct birsim_dtype_info row = {};
  row.name = info->name;
  row.mlir_type = info->mlirSpelling;
  row.kind = dtypeKindName(info->kind);
  row.reduction = reductionName(info->reduction);
  row.bytes = info->bytes;
  if (info->format) {
    row.exponent_bits = info->format->exponentBits;
    row.mantissa_bits = info->format->mantissaBits;
    row.bias = info->format->bias;
  }
  std::memcpy(out, &row, sizeof row);
  return BIRSIM_OK;
}

const char *birsim_memory_reduction_op_name(int op) {
  return memoryReductionOpName(op);
}

const char *birsim_alu_op_type_name(int alu_op) { return aluOpTypeName(alu_op); }

const char *birsim_bfp_format_name(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->name : nullptr;
}

const char *birsim_bfp_exponent_kind(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? bfpExponentName(f->exponent) : nullptr;
}

const char *birsim_last_error(void) { return tLastError.c_str(); }

int birsim_set_num_threads(int n) { return setNumThreads(n); }

const char *birsim_active_isa(void) { return activeIsaName(); }

const char *birsim_version(void) { return BIRSIM_VERSION_STRING; }

const char *birsim_fidelity_family_name(int family) {
  if (family < 0 || family >= kNumFidelityFamilies)
    return nullptr;
  return fidelityFamilyInfo(FidelityFamily(family)).name;
}

const char *birsim_fidelity_event_key(int event, int *family) {
  if (event < 0 || event >= kNumFidelityEvents)
    return nullptr;
  const FidelityEventInfo &info = fidelityEventInfo(FidelityEvent(event));
  if (family)
    *family = int(info.family);
  return info.key;
}

size_t birsim_bfp_tile_bytes(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->tileBytes : 0;
}

uint32_t birsim_bfp_mantissa_bits(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  if (!f)
    return 0;
  return f->kind == BfpKind::MxFloat ? f->element.mantissaBits
         : f->kind == BfpKind::MxInt ? f->elementBits - 2
                                     : f->magnitudeBits;
}

unsigned birsim_bfp_significant_bits(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->significantBits() : 0;
}

uint32_t birsim_bfp_datum_bits(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  return f ? f->datumBits : 0;
}

int birsim_bfp_pack_tiles(int format, const float *tiles, size_t tile_count,
                          void *out) {
  return counted([&](FidelityCounts *counts) {
    return bfpPack(format, int(Dtype::float32), tiles, tile_count,
                   kBfpTileSide, kBfpTileSide, 0, out, counts);
  });
}

int birsim_bfp_unpack_tiles(int format, const void *packed, size_t tile_count,
                            float *tiles_out) {
  return birsim_bfp_unpack(format, packed, tile_count, kBfpTileSide,
                           kBfpTileSide, 0, tiles_out);
}

const char *birsim_bfp_mixed_code_name(int code) {
  return code >= 0 && code < int(kNumBfpMixedCodes) ? kBfpMixedCodes[code].name
                                                    : nullptr;
}

const char *birsim_bfp_mixed_metric_name(int metric) {
  return metric >= 0 && metric < int(std::size(kBfpMixedMetricNames))
             ? kBfpMixedMetricNames[metric]
             : nullptr;
}

size_t birsim_bfp_mixed_bytes(const uint8_t *codes, size_t rows,
                              size_t cols) {
  return bfpMixedBytes(codes, rows, cols);
}

int birsim_bfp_pack_mixed(int src_dtype, const void *src, size_t rows,
                          size_t cols, unsigned flags, const uint8_t *codes,
                          void *out) {
  return report(bfpPackMixed(src_dtype, src, rows, cols, flags, codes, out));
}

int birsim_bfp_unpack_mixed(const void *packed, size_t rows, size_t cols,
                            unsigned flags, const uint8_t *codes, float *out) {
  return report(bfpUnpackMixed(packed, rows, cols, flags, codes, out));
}

int birsim_bfp_pack_mixed_checked(int src_dtype, const void *src, size_t rows,
                                  size_t cols, unsigned flags,
                                  const uint8_t *codes, void *out,
                                  size_t out_bytes) {
  return report(bfpPackMixed(src_dtype, src, rows, cols, flags, codes, out,
                             out_bytes));
}

int birsim_bfp_unpack_mixed_checked(const void *packed, size_t packed_bytes,
                                    size_t rows, size_t cols, unsigned flags,
                                    const uint8_t *codes, float *out) {
  return report(bfpUnpackMixed(packed, rows, cols, flags, codes, out,
                               packed_bytes));
}

int birsim_bfp_assign_mixed(int metric, double bound, double zero_bound,
                            unsigned formats, int src_dtype, const void *src,
                            size_t rows, size_t cols, unsigned flags,
                            uint8_t *codes) {
  return report(bfpAssignMixed(metric, bound, zero_bound, formats, src_dtype,
                               src, rows, cols, flags, codes));
}

size_t birsim_bfp_page_bytes(int format, uint32_t tile_rows,
                             uint32_t tile_cols, uint32_t alignment) {
  return bfpPageBytes(format, tile_rows, tile_cols, alignment);
}

int birsim_bfp_page_bytes_checked(int format, uint32_t tile_rows,
                                  uint32_t tile_cols, uint32_t alignment,
                                  size_t *bytes) {
  if (!bytes)
    return report(ErrorCode::invalidArgument, "null bytes");
  return report(bfpCheckPage(format, tile_rows, tile_cols, alignment, bytes));
}

int birsim_bfp_mixed_pack_codes(const uint8_t *tile_codes, size_t tiles,
                                uint8_t *codes) {
  return report(bfpMixedPackCodes(tile_codes, tiles, codes));
}

int birsim_bfp_mixed_unpack_codes(const uint8_t *codes, size_t tiles,
                                  uint8_t *tile_codes) {
  return report(bfpMixedUnpackCodes(codes, tiles, tile_codes));
}

size_t birsim_bfp_mixed_code_bytes(size_t tiles) {
  return bfpMixedCodeBytes(tiles);
}

int birsim_overlap_error(int exact_allowed) {
  return report(overlapError(exact_allowed != 0));
}

size_t birsim_bfp_packed_tile_bytes(int format, uint32_t tile_rows,
                                    uint32_t tile_cols) {
  return bfpPageBytes(format, tile_rows, tile_cols, 0);
}


const char *birsim_bfp_site_name(int where) {
  const BfpSiteInfo *site = lookupBfpSite(where);
  return site ? site->name : nullptr;
}

const char *birsim_tt_fp8_policy_name(int policy) {
  const TtFp8PolicyInfo *row = lookupTtFp8Policy(policy);
  return row ? row->name : nullptr;
}

int birsim_tt_fp8_encode(int policy, const float *src, size_t count,
                         uint8_t *dst) {
  return counted([&](FidelityCounts *counts) {
    return ttFp8EncodeBulk(policy, src, count, dst, counts);
  });
}

int birsim_tt_fp8_decode(int policy, const uint8_t *src, size_t count,
                         float *dst) {
  return report(ttFp8DecodeBulk(policy, src, count, dst));
}

int birsim_tensix_eltwise(int arch, int op, unsigned phases, int dest_kind,
                          int src_format, const float *a, const float *b,
                          size_t count, void *dest, int accumulate) {
  if (Status s = checkBoolean(accumulate, "tensix_eltwise: accumulate must "
                                          "be 0 or 1"))
    return report(s);
  return counted([&](FidelityCounts *counts) {
    return tensixEltwise(arch, op, phases, dest_kind, src_format, a, b, count,
                         dest, accumulate != 0, counts);
  });
}

int birsim_tensix_pack(int arch, int dest_kind, const void *dest,
                       size_t count, int out_dtype, void *out,
                       int l1_accumulate) {
  if (Status s = checkBoolean(l1_accumulate, "tensix_pack: l1_accumulate "
                                             "must be 0 or 1"))
    return report(s);
  return report(tensixPack(arch, dest_kind, dest, count, out_dtype, out,
                           l1_accumulate != 0));
}

/// An SFPU call's refusal: BIRSIM_EINVAL with the core's message.
static int reportSfpu(const char *what, bool ok, const std::string &error) {
  if (ok)
    return BIRSIM_OK;
  tLastError = std::string(what) + ": " + error;
  return BIRSIM_EINVAL;
}

int birsim_tensix_sfpu_run(int arch, const char *program, int dest_kind,
                           const void *dest_in, size_t count,
                           void *dest_out) {
  if (!program)
    return report(ErrorCode::invalidArgument,
                  "tensix_sfpu_run: program is NULL");
  SfpuProgram parsed;
  std::string error;
  bool ok = parseSfpuProgram(arch, program, parsed, error) &&
            runSfpuProgram(parsed, dest_kind, dest_in, count, dest_out, error);
  return reportSfpu("tensix_sfpu_run", ok, error);
}

int birsim_tensix_sfpu_op(const char *name) {
  return name ? sfpuOpNumber(name) : -1;
}

const char *birsim_tensix_sfpu_op_name(int op) { return sfpuOpName(op); }

int birsim_tensix_sfpu(int arch, int op, int dest_kind, const void *dest_in,
                       size_t count, void *dest_out) {
  std::string error;
  bool ok = runSfpuOp(arch, op, dest_kind, dest_in, count, dest_out, error);
  return reportSfpu("tensix_sfpu", ok, error);
}

unsigned birsim_tensix_idle_phases(unsigned phases, unsigned a_bits,
                                   unsigned b_bits) {
  return tensixIdlePhases(phases & 0xF, a_bits, b_bits);
}

int birsim_tensix_matmul(int arch, unsigned phases, int dest_kind,
                         int in0_src_format, int in1_src_format,
                         const float *in0, const float *in1, size_t m,
                         size_t k, size_t n, void *dest, int accumulate) {
  if (Status s = checkBoolean(accumulate, "tensix_matmul: accumulate must "
                                          "be 0 or 1"))
    return report(s);
  return counted([&](FidelityCounts *counts) {
    return tensixMatmul(arch, phases, dest_kind, in0_src_format,
                        in1_src_format, in0, in1, m, k, n, dest,
                        accumulate != 0, counts);
  });
}

unsigned birsim_tensix_useful_phases(unsigned phases, unsigned in0_bits,
                                     unsigned in1_bits) {
  return tensixUsefulPhases(phases & 0xF, in0_bits, in1_bits);
}

unsigned birsim_tensix_src_bits(int src_format) {
  const TensixSrcInfo *src = lookupTensixSrc(src_format);
  return src ? src->fractionBits + 1 : 0;
}

int birsim_tensix_dest_dtype(int dest_kind) {
  const TensixDestInfo *dest = lookupTensixDest(dest_kind);
  return dest ? int(tensixDestDtype(dest->dest)) : -1;
}

const char *birsim_tensix_name(int table, int number) {
  switch (table) {
  case 0:
    return tensixArchName(number);
  case 1:
    return tensixOpName(number);
  case 2:
    return lookupTensixDest(number) ? lookupTensixDest(number)->name : nullptr;
  case 3:
    return lookupTensixSrc(number) ? lookupTensixSrc(number)->name : nullptr;
  case 4:
    return tensixFidelityName(unsigned(number));
  default:
    return nullptr;
  }
}

int birsim_bfp_pack_at(int where, int format, int src_dtype, const void *src,
                       size_t tile_count, uint32_t tile_rows,
                       uint32_t tile_cols, unsigned flags, void *out) {
  return counted([&](FidelityCounts *counts) {
    return bfpPack(bfpTilesCall(where, format, tile_count, tile_rows, tile_cols,
                             flags),
                   src_dtype, src, out, counts);
  });
}

int birsim_bfp_pack_matrix_at(int where, int format, int src_dtype,
                              const void *src, size_t rows, size_t cols,
                              uint32_t tile_rows, uint32_t tile_cols,
                              unsigned flags, void *out) {
  return counted([&](FidelityCounts *counts) {
    return bfpPack(
        bfpMatrixCall(where, format, rows, cols, tile_rows, tile_cols, flags),
        src_dtype, src, out, counts);
  });
}

int birsim_bfp_unpack_at(int where, int format, const void *packed,
                         size_t tile_count, uint32_t tile_rows,
                         uint32_t tile_cols, unsigned flags, float *out) {
  return report(bfpUnpack(
      bfpTilesCall(where, format, tile_count, tile_rows, tile_cols, flags), packed,
      out));
}

int birsim_bfp_unpack_matrix_at(int where, int format, const void *packed,
                                size_t rows, size_t cols, uint32_t tile_rows,
                                uint32_t tile_cols, unsigned flags,
                                float *out) {
  return report(bfpUnpack(
      bfpMatrixCall(where, format, rows, cols, tile_rows, tile_cols, flags),
      packed, out));
}

int birsim_bfp_device_diff(int where, int format, int src_dtype,
                           const void *src, size_t tile_count,
                           uint32_t tile_rows, uint32_t tile_cols,
                           unsigned flags, uint8_t *mask, uint64_t *count) {
  return report(bfpDeviceDiff(
      bfpTilesCall(where, format, tile_count, tile_rows, tile_cols, flags),
      src_dtype, src, mask, count));
}

int birsim_bfp_pack(int format, int src_dtype, const void *src,
                    size_t tile_count, uint32_t tile_rows, uint32_t tile_cols,
                    unsigned flags, void *out) {
  return birsim_bfp_pack_at(BIRSIM_BFP_HOST, format, src_dtype, src,
                            tile_count, tile_rows, tile_cols, flags, out);
}

int birsim_bfp_unpack(int format, const void *packed, size_t tile_count,
                      uint32_t tile_rows, uint32_t tile_cols, unsigned flags,
                      float *out) {
  return birsim_bfp_unpack_at(BIRSIM_BFP_HOST, format, packed, tile_count,
                              tile_rows, tile_cols, flags, out);
}

int birsim_bfp_pack_matrix(int format, int src_dtype, const void *src,
                           size_t rows, size_t cols, uint32_t tile_rows,
                           uint32_t tile_cols, unsigned flags, void *out) {
  return birsim_bfp_pack_matrix_at(BIRSIM_BFP_HOST, format, src_dtype, src,
                                   rows, cols, tile_rows, tile_cols, flags,
                                   out);
}

int birsim_bfp_unpack_matrix(int format, const void *packed, size_t rows,
                             size_t cols, uint32_t tile_rows,
                             uint32_t tile_cols, unsigned flags, float *out) {
  return birsim_bfp_unpack_matrix_at(BIRSIM_BFP_HOST, format, packed, rows,
                                     cols, tile_rows, tile_cols, flags, out);
}

/// The value-level calls have no status: an unknown format returns 0 and
/// sets birsim_last_error().
static const BfpFormatInfo *valueFormat(int format) {
  const BfpFormatInfo *f = lookupBfpFormat(format);
  if (!f)
    report(Status::error(ErrorCode::invalidFormat, format));
  return f;
}

uint8_t birsim_bfp_convert_float_bits(int format, uint32_t input_bits,
                                      uint32_t shared_exp) {
  const BfpFormatInfo *f = valueFormat(format);
  if (!f)
    return 0;
  if (f->isMx())
    return uint8_t(mxEncode(*f, input_bits, uint8_t(shared_exp)));
  BfpTally ties;
  uint8_t datum = bfpEncode(*f, input_bits, shared_exp, ties);
  bfpAddTies(ties);
  return datum;
}

uint32_t birsim_bfp_convert_datum(int format, uint8_t datum,
                                  uint32_t shared_exp) {
  const BfpFormatInfo *f = valueFormat(format);
  if (f && f->isMx())
    return mxDecode(*f, datum, uint8_t(shared_exp));
  return f ? bfpDecode(*f, datum, shared_exp) : 0;
}

uint8_t birsim_bfp_block_shared_exponent(int format,
                                         const uint32_t *block_bits) {
  const BfpFormatInfo *f = valueFormat(format);
  if (!f)
    return 0;
  if (!block_bits) {
    report(ErrorCode::invalidArgument, "null block_bits");
    return 0;
  }
  return f->isMx() ? mxScale(*f, block_bits)
                   : bfpSharedExponent(*f, block_bits);
}

void birsim_bfp_tie_counters(uint64_t *ties_seen, uint64_t *ties_rounded_up) {
  bfpTieCounters(ties_seen, ties_rounded_up);
}

void birsim_bfp_tie_counters_reset(void) { bfpTieCountersReset(); }

static std::atomic<birsim_status_handler> statusHandler{nullptr};

birsim_status_handler birsim_set_status_handler(birsim_status_handler handler) {
  return statusHandler.exchange(handler);
}

void birsim_check_status(int status, const char *what) {
  if (status == BIRSIM_OK)
    return;
  if (birsim_status_handler handler = statusHandler.load())
    return handler(status, what, birsim_last_error());
  std::fflush(stdout); // keep what the program printed before the exit
  std::fprintf(stderr, "birsim runtime error in %s: %s\n",
               what ? what : "<unknown>", birsim_last_error());
  std::fflush(stderr);
  std::exit(EXIT_FAILURE);
}

const char *birsim_bfp_flag(int index, unsigned *bits) {
  if (index < 0 || index >= int(std::size(kBfpFlags)))
    return nullptr;
  if (bits)
    *bits = kBfpFlags[index].bits;
  return kBfpFlags[index].name;
}

unsigned birsim_bfp_flag_page_bytes(int index) {
  return index >= 0 && index < int(std::size(kBfpFlags))
             ? kBfpFlags[index].pageBytes
             : 0;
}

} // extern "C"

//===----------------------------------------------------------------------===//
// The function table (RuntimeFunctions.def)
//===----------------------------------------------------------------------===//

using birsim::describeCType;

#define BIRSIM_ARG(CType, Role) describeCType<CType>(#CType, #Role),
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
  static constexpr birsim_function_param Name##Params[] = {                    \
      __VA_ARGS__ describeCType<void>(nullptr, nullptr)};
#include "birsim/Runtime/RuntimeFunctions.def"

static const struct birsim_function_info kFunctions[] = {
#define BIRSIM_ARG(CType, Role)
#define BIRSIM_RUNTIME_FUNCTION(Name, Result, Lowered, Counts, ...)            \
  {#Name,                                                                      \
   describeCType<Result>(#Result, ""),                                         \
   Name##Params,                                                               \
   uint32_t(std::size(Name##Params) - 1),                                      \
   std::string_view(#Lowered) == "Lowered",                                    \
   std::string_view(#Counts) == "Counted"},
#include "birsim/Runtime/RuntimeFunctions.def"
};

extern "C" {

int birsim_function_count(void) { return int(std::size(kFunctions)); }

int birsim_function_info(int index, struct birsim_function_info *out,
                         size_t out_size) {
  if (!out || out_size < sizeof(struct birsim_function_info))
    return report(ErrorCode::invalidArgument,
                  "null or smaller than struct birsim_function_info");
  if (index < 0 || index >= birsim_function_count())
    return report(ErrorCode::invalidArgument,
                  ("no runtime function " + std::to_string(index) +
                   " (there are " + std::to_string(birsim_function_count()) +
                   ")")
                      .c_str());
  std::memcpy(out, &kFunctions[index], sizeof *out);
  return BIRSIM_OK;
}

} // extern "C"
