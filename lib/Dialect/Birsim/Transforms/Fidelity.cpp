//===- Fidelity.cpp - the birsim-fidelity analysis pass -------------------===//
//
// Counts, on constant operands, what the simulator's numerics do to values
// (docs/Fidelity.md). The counting is the core's (birsim/Core/Fidelity.h),
// the same code the runtime's counters run.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/Transforms/Passes.h"
#include "birsim/Dialect/Birsim/Transforms/TensixOperands.h"

#include "birsim/Core/DmaCompute.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "birsim/Core/Reduce.h"
#include "birsim/Core/Tensix.h"
#include "birsim/Core/TtFp8.h"
#include "birsim/Dialect/Birsim/IR/BirsimConstants.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>
#include <cstring>

namespace birsim {
#define GEN_PASS_DEF_BIRSIMFIDELITYPASS
#include "birsim/Dialect/Birsim/Transforms/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;
using core::FidelityEvent;
using core::FidelityFamily;
using core::FidelityTally;

namespace {

/// One analysed op: its family and its tally.
struct OpCounts {
  Operation *op;
  FidelityFamily family;
  FidelityTally tally;
  unsigned idlePhases = 0; ///< tensix: the phases that add nothing
};

/// What one analysis may materialise (D76): a remark when it declines.
FoldBudget analysisBudget(Operation *op) {
  return FoldBudget(op, "not analysed");
}

/// Elements to tally: one when every operand is splat (counted once and
/// scaled by scaleTally, D76), else all `count`.
size_t talliedCount(ArrayRef<RawConstant> operands, size_t count) {
  return llvm::all_of(operands, [](const RawConstant &c) { return c.splat; })
             ? std::min<size_t>(count, 1)
             : count;
}

/// The tally of `count` elements from that of `tallied` identical ones (a
/// splat's; D76): every count times count / tallied; the first indices
/// stay, the first repeat holds them.
void scaleTally(FidelityTally &tally, size_t tallied, size_t count) {
  if (tallied == 0 || tallied == count)
    return;
  uint64_t copies = count / tallied;
  for (uint64_t &n : tally.count)
    n *= copies;
  for (uint64_t &n : tally.elements)
    n *= copies;
}

/// ±max finite of an fp8 dtype, as printed in remarks ("240").
std::string maxFinite(const core::DtypeInfo &dtype) {
  uint32_t bits =
      core::widenToF32(*dtype.format, dtype.format->maxFiniteCode());
  float value;
  std::memcpy(&value, &bits, 4);
  char text[32];
  std::snprintf(text, sizeof(text), "%g", double(value));
  return text;
}

/// An fp8 add: the reduce path narrows with FP8 config 0 (§3).
bool isFp8Add(const core::DtypeInfo *dtype, core::MemoryReductionOp kind) {
  return dtype && dtype->reduction == core::Reduction::Fp8 &&
         kind == core::MemoryReductionOp::add;
}

void remarkUncounted(Operation *op, Type elementType,
                     const core::DtypeInfo &dtype, StringRef why) {
  op->emitRemark() << elementType << " add not counted (" << why
                   << "): the simulator's reduce path narrows with FP8 "
                      "config 0 and does not saturate, so a sum beyond ±"
                   << maxFinite(dtype) << " becomes ±Inf where a saturating "
                   << "narrow gives ±" << maxFinite(dtype);
}

/// ", 2 saturated (first at index 1), ..." for every non-zero event of the
/// family.
std::string describeEvents(const FidelityTally &tally, FidelityFamily family) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool firstEvent = true;
  for (int e = 0; e < core::kNumFidelityEvents; ++e) {
    const core::FidelityEventInfo &info =
        core::fidelityEventInfo(FidelityEvent(e));
    if (info.family != family || !tally.count[e])
      continue;
    os << (firstEvent ? "" : ", ") << tally.count[e] << " " << info.key
       << " (first at index " << tally.first[e] << ")";
    firstEvent = false;
  }
  return text;
}

bool anyEvent(const FidelityTally &tally, FidelityFamily family) {
  for (int e = 0; e < core::kNumFidelityEvents; ++e)
    if (core::fidelityEventInfo(FidelityEvent(e)).family == family &&
        tally.count[e])
      return true;
  return false;
}

struct BirsimFidelityPass
    : public birsim::impl::BirsimFidelityPassBase<BirsimFidelityPass> {
  using BirsimFidelityPassBase::BirsimFidelityPassBase;

  void runOnOperation() override {
    std::optional<BfpSite> site = symbolizeBfpSite(deviceSite);
    if (!site || *site == BfpSite::host) {
      getOperation().emitError("birsim-fidelity: device-site '")
          << deviceSite
          << "' is not a device site: device_differs compares the host with "
             "one (a BFP `at` value other than host)";
      return signalPassFailure();
    }
    countedSite = core::BfpSite(*site);
    std::vector<OpCounts> analysed;
    UpstreamCasts upstream;
    getOperation().walk([&](Operation *op) {
      std::optional<OpCounts> counts;
      if (!analyseAny<
#define GET_OP_LIST
#include "birsim/Dialect/Birsim/IR/BirsimOps.cpp.inc"
              >(op, counts))
        remarkBufferForm(op);
      if (counts)
        analysed.push_back(std::move(*counts));
      upstream.note(op);
    });
    upstream.remark();
    if (!report.empty() && failed(writeReport(analysed)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// Casts between the simulator's float types still in arith or tosa are
  /// not analysed: one remark, on the first, says how many and what to run.
  struct UpstreamCasts {
    Operation *first = nullptr;
    unsigned count = 0;

    void note(Operation *op) {
      if (!isa<arith::TruncFOp, arith::ExtFOp>(op) &&
          op->getName().getStringRef() != "tosa.cast")
        return;
      Type in = getElementTypeOrSelf(op->getOperand(0));
      Type out = getElementTypeOrSelf(op->getResult(0));
      if (in == out || !isBirsimFloat(in) || !isBirsimFloat(out))
        return;
      if (!first)
        first = op;
      ++count;
    }

    void remark() const {
      if (first)
        first->emitRemark()
            << count
            << " upstream cast(s) between the simulator's float types (this "
               "is the first) are not analysed: run --convert-to-birsim first "
               "(docs/Conversions.md)";
    }
  };

private:
  /// The ops without an analyse overload of their own.
  struct NotAnalysed {};
  template <typename Op> NotAnalysed analyse(Op) { return {}; }

  /// Runs the analyse overload of the birsim op (of the ODS op list) that
  /// `op` is, if it has one.
  template <typename... Ops>
  bool analyseAny(Operation *op, std::optional<OpCounts> &counts) {
    auto tryOp = [&](auto typed) {
      using Op = decltype(typed);
      if constexpr (!std::is_same_v<decltype(analyse(typed)), NotAnalysed>)
        if (auto matched = dyn_cast<Op>(op)) {
          counts = analyse(matched);
          return true;
        }
      return false;
    };
    return (tryOp(Ops(nullptr)) || ...);
  }

  std::optional<OpCounts> analyse(ReduceOp op) {
    const core::DtypeInfo *dtype = lookupDtypeInfo(op.getType());
    if (!isFp8Add(dtype, core::MemoryReductionOp(op.getKind())))
      return std::nullopt;
    Type element = getElementTypeOrSelf(op.getType());
    std::optional<size_t> count = checkedElementCount(op.getType());
    std::optional<RawConstant> accRaw = rawConstantOf(op.getDst(), 1);
    std::optional<RawConstant> xRaw = rawConstantOf(op.getSrc(), 1);
    if (!count || !accRaw || !xRaw) {
      remarkUncounted(op, element, *dtype, "operands are not constants");
      return std::nullopt;
    }
    size_t tallied = talliedCount({*accRaw, *xRaw}, *count);
    FoldBudget budget = analysisBudget(op);
    SmallVector<char> accStorage, xStorage;
    const char *acc, *x;
    if (!(acc = elementsOf(*accRaw, tallied, 1, accStorage, budget)) ||
        !(x = elementsOf(*xRaw, tallied, 1, xStorage, budget)))
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::reduce, {}};
    core::tallyReduce(int(op.getKind()), *dtype, acc, x, 0, tallied,
                      counts.tally);
    scaleTally(counts.tally, tallied, *count);
    constexpr int kEvent = int(FidelityEvent::reduce_sim_inf_device_saturates);
    if (uint64_t n = counts.tally.count[kEvent])
      op.emitRemark() << element << " reduce add: " << n << " of " << *count
                      << " sums overflow to ±Inf on the simulator where a "
                         "saturating narrow gives ±"
                      << maxFinite(*dtype) << " (first at index "
                      << counts.tally.first[kEvent] << ")";
    return counts;
  }

  std::optional<OpCounts> analyse(CastOp op) {
    const core::DtypeInfo *from = lookupDtypeInfo(op.getInput().getType());
    const core::DtypeInfo *to = lookupDtypeInfo(op.getType());
    std::optional<size_t> count = checkedElementCount(op.getType());
    std::optional<RawConstant> raw =
        from ? rawConstantOf(op.getInput(), from->bytes) : std::nullopt;
    if (!to || !count || !raw)
      return std::nullopt;
    size_t tallied = talliedCount({*raw}, *count);
    FoldBudget budget = analysisBudget(op);
    SmallVector<char> storage;
    const char *in = elementsOf(*raw, tallied, from->bytes, storage, budget);
    if (!in)
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::cast, {}};
    core::tallyCast(*from, *to, in, 0, tallied, unsigned(op.getFp8Config()),
                    counts.tally);
    scaleTally(counts.tally, tallied, *count);
    if (anyEvent(counts.tally, counts.family)) {
      InFlightDiagnostic remark = op.emitRemark();
      remark << "cast " << getElementTypeOrSelf(op.getInput()) << " to "
             << getElementTypeOrSelf(op.getType());
      if (to->isFp8()) // the config applies to fp8 results only (§4)
        remark << " (fp8_config<" << stringifyFp8Config(op.getFp8Config())
               << ">)";
      remark << ": of " << *count << " values, "
             << describeEvents(counts.tally, counts.family);
    }
    return counts;
  }

  /// The DMA's narrowing of constant sources (docs/Fidelity.md, cast): the
  /// exact fp32 results, then the cast engine's events into the result's
  /// dtype (with stochastic rounding, those of nearest-even's narrowing).
  std::optional<OpCounts> analyse(DmaComputeOp op) {
    const core::DtypeInfo *to = lookupDtypeInfo(op.getType());
    std::optional<size_t> count = checkedElementCount(op.getType());
    if (!to || !count)
      return std::nullopt;
    SmallVector<RawConstant> raws;
    SmallVector<const core::DtypeInfo *> from;
    for (Value src : op.getSrcs()) {
      from.push_back(lookupDtypeInfo(src.getType()));
      std::optional<RawConstant> raw = rawConstantOf(src, from.back()->bytes);
      if (!raw)
        return std::nullopt;
      raws.push_back(*raw);
    }
    size_t tallied = talliedCount(raws, *count);
    FoldBudget budget = analysisBudget(op);
    SmallVector<SmallVector<char>> storage(raws.size());
    SmallVector<const void *> srcs;
    SmallVector<int> dtypes;
    for (auto [k, raw] : llvm::enumerate(raws)) {
      const char *in =
          elementsOf(raw, tallied, from[k]->bytes, storage[k], budget);
      if (!in)
        return std::nullopt;
      srcs.push_back(in);
      dtypes.push_back(int(from[k]->dtype));
    }
    const core::DtypeInfo &f32 = core::dtypeInfo(core::Dtype::float32);
    if (!budget.charge(tallied, 4, "the exact fp32 results"))
      return std::nullopt;
    SmallVector<uint32_t> exact(tallied);
    if (!core::dmaCompute(int(op.getKind()), srcs.data(), dtypes.data(),
                          srcs.size(), exact.data(), int(f32.dtype), tallied,
                          {})
             .ok())
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::cast, {}};
    core::tallyCast(f32, *to, exact.data(), 0, tallied,
                    unsigned(op.getFp8Config()), counts.tally);
    scaleTally(counts.tally, tallied, *count);
    if (anyEvent(counts.tally, counts.family))
      op.emitRemark() << "dma_compute "
                      << stringifyMemoryReductionOp(op.getKind()) << " into "
                      << getElementTypeOrSelf(op.getType()) << ": of " << *count
                      << " results, "
                      << describeEvents(counts.tally, counts.family);
    return counts;
  }

  /// A BFP or MX pack of a constant tensor, either form (docs/Fidelity.md,
  /// bfp_pack and mx_pack): the core's tally of the op's call.
  std::optional<OpCounts> analyseBfp(BfpOpInterface op) {
    core::BfpCall call = bfpCallOf(op);
    if (call.site != int(core::BfpSite::host)) // the host packer's events
      return std::nullopt;
    auto type = cast<RankedTensorType>(op.getValues().getType());
    const core::DtypeInfo *info = lookupDtypeInfo(type);
    std::optional<size_t> elements = checkedElementCount(type);
    if (!info || !elements)
      return std::nullopt;
    size_t count = *elements;
    FoldBudget budget = analysisBudget(op);
    SmallVector<char> storage;
    const char *in =
        constantElements(op.getValues(), count, info->bytes, storage, budget);
    if (!in)
      return std::nullopt;
    const core::BfpFormatInfo *format = core::lookupBfpFormat(call.format);
    OpCounts counts{op,
                    format && format->isMx() ? FidelityFamily::mx_pack
                                             : FidelityFamily::bfp_pack,
                    {}};
    if (!core::tallyBfpPack(call, int(info->dtype), in, counts.tally,
                            countedSite)
             .ok())
      return std::nullopt;
    if (anyEvent(counts.tally, counts.family))
      op->emitRemark() << op->getName().stripDialect() << " "
                       << stringifyBfpFormat(op.getFormat()) << ": of "
                       << count << " values, "
                       << describeEvents(counts.tally, counts.family);
    return counts;
  }
  std::optional<OpCounts> analyse(BfpPackOp op) { return analyseBfp(op); }

  /// A tt FP8 encode of a constant tensor (docs/Fidelity.md, tt_fp8): the
  /// core's tally of where the policies disagree.
  std::optional<OpCounts> analyse(TtFp8EncodeOp op) {
    std::optional<size_t> elements = checkedElementCount(op.getInput().getType());
    std::optional<RawConstant> raw = rawConstantOf(op.getInput(), 4);
    if (!elements || !raw)
      return std::nullopt;
    size_t count = *elements, tallied = talliedCount({*raw}, count);
    FoldBudget budget = analysisBudget(op);
    SmallVector<char> storage;
    const char *in = elementsOf(*raw, tallied, 4, storage, budget);
    if (!in)
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::tt_fp8, {}};
    if (!core::tallyTtFp8(int(op.getPolicy()), in, tallied, counts.tally).ok())
      return std::nullopt;
    scaleTally(counts.tally, tallied, count);
    if (anyEvent(counts.tally, counts.family))
      op->emitRemark() << "tt_fp8_encode " << stringifyTtFp8Policy(op.getPolicy())
                       << ": of " << count << " values, "
                       << describeEvents(counts.tally, counts.family);
    return counts;
  }
  std::optional<OpCounts> analyse(BfpPackMatrixOp op) { return analyseBfp(op); }

  /// A Tensix elementwise op on constants (docs/Fidelity.md, tensix): the
  /// core's tally, and the phases whose slices are zero for the operands'
  /// significant bits (docs/Semantics.md section 7, fidelity phases).
  std::optional<OpCounts> analyse(TensixEltwiseOp op) {
    std::optional<size_t> elements = checkedElementCount(op.getType());
    std::optional<RawConstant> aRaw = rawConstantOf(op.getLhs(), 4);
    std::optional<RawConstant> bRaw = rawConstantOf(op.getRhs(), 4);
    if (!elements || !aRaw || !bRaw)
      return std::nullopt;
    size_t count = *elements, tallied = talliedCount({*aRaw, *bRaw}, count);
    FoldBudget budget = analysisBudget(op);
    unsigned destBytes = core::kTensixDestTable[int(op.getDest())].storageBytes;
    SmallVector<char> aStorage, bStorage;
    const char *a, *b;
    if (!(a = elementsOf(*aRaw, tallied, 4, aStorage, budget)) ||
        !(b = elementsOf(*bRaw, tallied, 4, bStorage, budget)) ||
        !budget.charge(tallied, destBytes, "a zeroed Dest"))
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::tensix, {}};
    SmallVector<char> zeroDest(tallied * destBytes, 0);
    if (!core::tallyTensixEltwise(
             int(op.getArch()), int(op.getOp()), unsigned(op.getFidelity()),
             int(op.getDest()), int(op.getSrc()),
             reinterpret_cast<const float *>(a),
             reinterpret_cast<const float *>(b), tallied, zeroDest.data(),
             false, counts.tally)
             .ok())
      return std::nullopt;
    scaleTally(counts.tally, tallied, count);
    auto src = core::TensixSrc(op.getSrc());
    unsigned aBits = core::tensixSignificantBits(src, a, tallied);
    unsigned bBits = core::tensixSignificantBits(src, b, tallied);
    if (op.getOp() == TensixOp::mul)
      counts.idlePhases = core::tensixIdlePhases(unsigned(op.getFidelity()),
                                                 aBits, bBits);
    if (anyEvent(counts.tally, counts.family))
      op->emitRemark() << "tensix_eltwise " << stringifyTensixOp(op.getOp())
                       << " at " << stringifyTensixFidelity(op.getFidelity())
                       << ": of " << count << " values, "
                       << describeEvents(counts.tally, counts.family);
    if (counts.idlePhases) {
      bool several = counts.idlePhases & (counts.idlePhases - 1);
      auto dest = core::TensixDest(op.getDest());
      int products = core::tensixLargestProductExponent(dest, src, a, tallied,
                                                        b, tallied);
      InFlightDiagnostic remark = op->emitRemark();
      remark << "tensix_eltwise " << stringifyTensixOp(op.getOp()) << " at "
             << stringifyTensixFidelity(op.getFidelity()) << ": "
             << tensixPhaseList(counts.idlePhases);
      // A zero phase adds nothing while no product passes Dest's largest
      // exponent (docs/Semantics.md section 7, "Fidelity phases").
      if (core::tensixDroppedPhasesExact(dest, products))
        remark << (several ? " add" : " adds") << " nothing";
      else
        remark << (several ? " multiply" : " multiplies")
               << " only zeros but realign Dest: the products reach exponent "
               << products << ", past Dest's largest";
      remark << ": the operands carry at most " << aBits << " (SrcA) and "
             << bBits << " (SrcB) significant bits (docs/Semantics.md "
                         "section 7)";
    }
    return counts;
  }

  /// A Tensix matmul on constants (docs/Fidelity.md, tensix): the core's
  /// tally of its outputs, and the phases that multiply only zeros.
  std::optional<OpCounts> analyse(TensixMatmulOp op) {
    auto [m, k, n] =
        tensixMatmulExtent(op.getIn0().getType(), op.getIn1().getType());
    std::optional<RawConstant> aRaw = rawConstantOf(op.getIn0(), 4);
    std::optional<RawConstant> bRaw = rawConstantOf(op.getIn1(), 4);
    if (!aRaw || !bRaw)
      return std::nullopt;
    // Splats by splats: one 32x32 tile of identical outputs, scaled (D76).
    bool splat = aRaw->splat && bRaw->splat;
    size_t rows = splat ? 32 : m, cols = splat ? 32 : n;
    FoldBudget budget = analysisBudget(op);
    unsigned destBytes = core::kTensixDestTable[int(op.getDest())].storageBytes;
    SmallVector<char> aStorage, bStorage;
    const char *in0, *in1;
    if (!budget.chargeMatmul(rows, k, cols) ||
        !(in0 = elementsOf(*aRaw, rows * k, 4, aStorage, budget)) ||
        !(in1 = elementsOf(*bRaw, k * cols, 4, bStorage, budget)) ||
        !budget.charge(rows * cols, destBytes, "a zeroed Dest"))
      return std::nullopt;
    OpCounts counts{op, FidelityFamily::tensix, {}};
    SmallVector<char> zeroDest(rows * cols * destBytes, 0);
    if (!core::tallyTensixMatmul(
             int(op.getArch()), unsigned(op.getFidelity()), int(op.getDest()),
             int(op.getIn0Src()), int(op.getIn1Src()),
             reinterpret_cast<const float *>(in0),
             reinterpret_cast<const float *>(in1), rows, k, cols,
             zeroDest.data(), false, counts.tally)
             .ok())
      return std::nullopt;
    scaleTally(counts.tally, rows * cols, m * n);
    unsigned in0Bits = core::tensixSignificantBits(
        core::TensixSrc(op.getIn0Src()), in0, splat ? 1 : m * k);
    unsigned in1Bits = core::tensixSignificantBits(
        core::TensixSrc(op.getIn1Src()), in1, splat ? 1 : k * n);
    unsigned phases = unsigned(op.getFidelity());
    counts.idlePhases =
        phases & ~core::tensixUsefulPhases(phases, in0Bits, in1Bits);
    if (anyEvent(counts.tally, counts.family))
      op->emitRemark() << "tensix_matmul at "
                       << stringifyTensixFidelity(op.getFidelity()) << ": of "
                       << m * n << " outputs, "
                       << describeEvents(counts.tally, counts.family);
    if (counts.idlePhases)
      op->emitRemark() << "tensix_matmul at "
                       << stringifyTensixFidelity(op.getFidelity()) << ": "
                       << tensixPhaseList(counts.idlePhases)
                       << (counts.idlePhases & (counts.idlePhases - 1)
                               ? " multiply"
                               : " multiplies")
                       << " only zeros: the operands carry at most "
                       << in0Bits << " (in0, SrcB) and " << in1Bits
                       << " (in1, SrcA) significant bits; their MVMULs still "
                          "realign Dest (--birsim-tensix-useful-phases; "
                          "docs/Semantics.md section 7)";
    return counts;
  }

  core::BfpSite countedSite = core::BfpSite::fp32_dest;

  /// The buffer forms of an fp8 add execute only at run time.
  void remarkBufferForm(Operation *op) {
    Type buffer;
    core::MemoryReductionOp kind = core::MemoryReductionOp::copy;
    if (auto into = dyn_cast<ReduceIntoOp>(op)) {
      buffer = into.getDst().getType();
      kind = core::MemoryReductionOp(into.getKind());
    } else if (auto dma = dyn_cast<DmaCopyOp>(op)) {
      buffer = dma.getDst().getType();
      (void)core::aluOpToMemoryReduction(int(dma.getCceOp()), kind);
    } else if (auto save = dyn_cast<IndirectSaveOp>(op)) {
      buffer = save.getDst().getType();
      (void)core::aluOpToMemoryReduction(int(save.getCceOp()), kind);
    } else if (auto save = dyn_cast<IndirectSaveAccumulateOp>(op)) {
      buffer = save.getDst().getType();
      (void)core::aluOpToMemoryReduction(int(save.getCceOp()), kind);
    } else {
      return;
    }
    const core::DtypeInfo *dtype = lookupDtypeInfo(buffer);
    if (isFp8Add(dtype, kind))
      remarkUncounted(op, getElementTypeOrSelf(buffer), *dtype,
                      "buffer operands are known only at run time");
  }

  /// The JSON report to `report`; '-' is stderr, after the remarks, so
  /// that stdout keeps only the module (docs/Decisions.md D36).
  LogicalResult writeReport(ArrayRef<OpCounts> analysed) {
    auto write = [&](llvm::raw_ostream &os) {
      llvm::json::OStream json(os, /*IndentSize=*/2);
      json.array([&] {
        for (const OpCounts &counts : analysed)
          json.object([&] { writeOp(json, counts); });
      });
      os << "\n";
    };
    if (report == "-") {
      write(llvm::errs());
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(report, &error);
    if (!file)
      return getOperation().emitError("birsim-fidelity: cannot write report '")
             << report << "': " << error;
    write(file->os());
    file->keep();
    return success();
  }

  static void writeOp(llvm::json::OStream &json, const OpCounts &counts) {
    std::string location;
    llvm::raw_string_ostream os(location);
    counts.op->getLoc().print(os);
    json.attribute("op", counts.op->getName().getStringRef());
    json.attribute("loc", location);
    json.attribute("family", core::fidelityFamilyInfo(counts.family).name);
    json.attribute("elements",
                   int64_t(counts.tally.elements[int(counts.family)]));
    auto eachKey = [&](auto value) {
      for (int e = 0; e < core::kNumFidelityEvents; ++e) {
        const core::FidelityEventInfo &info =
            core::fidelityEventInfo(FidelityEvent(e));
        if (info.family == counts.family)
          json.attribute(info.key, value(e));
      }
    };
    json.attributeObject("counts", [&] {
      eachKey([&](int e) { return int64_t(counts.tally.count[e]); });
    });
    json.attributeObject("first", [&] {
      eachKey([&](int e) { return counts.tally.first[e]; });
    });
    if (counts.family == FidelityFamily::tensix)
      json.attributeArray("idle_phases", [&] {
        for (int p = 0; p < 4; ++p)
          if (counts.idlePhases >> p & 1)
            json.value(p);
      });
  }
};

} // namespace
