//===- TensixUsefulPhases.cpp - drop the phases that multiply zeros -------===//
//
// Rewrites each Tensix op's fidelity to its useful phases
// (core::tensixUsefulPhases; docs/Semantics.md section 7, "Fidelity
// phases"), with a remark saying whether the rewrite is exact.
//
//===----------------------------------------------------------------------===//
#include "birsim/Dialect/Birsim/Transforms/Passes.h"
#include "birsim/Dialect/Birsim/Transforms/TensixOperands.h"

#include "birsim/Core/Tensix.h"
#include "birsim/Core/Threads.h"
#include "birsim/Dialect/Birsim/IR/BirsimConstants.h"
#include "birsim/Dialect/Birsim/IR/BirsimOps.h"
#include "birsim/Dialect/Birsim/IR/BirsimSizes.h"


#include <cstring>

namespace birsim {
#define GEN_PASS_DEF_BIRSIMTENSIXUSEFULPHASESPASS
#include "birsim/Dialect/Birsim/Transforms/Passes.h.inc"
} // namespace birsim

using namespace mlir;
using namespace birsim;

namespace {

/// How many of a constant matmul's Dest words differ between `phases` and
/// `useful`, and the first index; nullopt when an operand is not constant
/// or the fold limit declines (a remark says so; D76).
std::optional<std::pair<size_t, size_t>> changedOutputs(TensixMatmulOp op,
                                                        unsigned useful) {
  auto [m, k, n] =
      tensixMatmulExtent(op.getIn0().getType(), op.getIn1().getType());
  std::optional<RawConstant> a = rawConstantOf(op.getIn0(), 4);
  std::optional<RawConstant> b = rawConstantOf(op.getIn1(), 4);
  if (!a || !b)
    return std::nullopt;
  // Splats by splats: every output is the same, one 32x32 tile is all.
  bool splat = a->splat && b->splat;
  size_t rows = splat ? 32 : m, cols = splat ? 32 : n;
  unsigned bytes = core::kTensixDestTable[int(op.getDest())].storageBytes;
  FoldBudget budget(op, "exactness not checked");
  SmallVector<char> aStorage, bStorage;
  const float *in0, *in1;
  if (!budget.chargeMatmul(2 * rows, k, cols) ||
      !(in0 = reinterpret_cast<const float *>(
            elementsOf(*a, rows * k, 4, aStorage, budget))) ||
      !(in1 = reinterpret_cast<const float *>(
            elementsOf(*b, k * cols, 4, bStorage, budget))) ||
      !budget.charge(2 * rows * cols, bytes, "two Dests"))
    return std::nullopt;
  std::vector<char> before(rows * cols * bytes, 0),
      after(rows * cols * bytes, 0);
  core::SingleThreadScope singleThread;
  for (auto [phases, out] : {std::pair(unsigned(op.getFidelity()), &before),
                             std::pair(useful, &after)})
    if (!core::tensixMatmul(int(op.getArch()), phases, int(op.getDest()),
                            int(op.getIn0Src()), int(op.getIn1Src()), in0, in1,
                            rows, k, cols, out->data(), false)
             .ok())
      return std::nullopt;
  size_t changed = 0, first = 0;
  for (size_t i = rows * cols; i-- > 0;)
    if (std::memcmp(&before[i * bytes], &after[i * bytes], bytes)) {
      ++changed;
      first = i;
    }
  if (splat && changed) // every output changes alike
    changed = m * n;
  return std::pair(changed, first);
}

struct BirsimTensixUsefulPhasesPass
    : public birsim::impl::BirsimTensixUsefulPhasesPassBase<
          BirsimTensixUsefulPhasesPass> {
  using BirsimTensixUsefulPhasesPassBase::BirsimTensixUsefulPhasesPassBase;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (auto matmul = dyn_cast<TensixMatmulOp>(op))
        rewrite(matmul);
      else if (auto eltwise = dyn_cast<TensixEltwiseOp>(op))
        if (eltwise.getOp() == TensixOp::mul)
          rewrite(eltwise);
    });
  }

private:
  /// The phases to keep of `phases`: the useful ones, else the lowest.
  static unsigned kept(unsigned phases, unsigned useful) {
    return useful ? useful : phases & -phases;
  }

  /// "hifi4 -> phases_02: phases 1, 3 removed: <why>".
  template <typename Op>
  static void describe(InFlightDiagnostic &remark, Op op, unsigned to,
                       StringRef why) {
    unsigned from = unsigned(op.getFidelity());
    remark << op->getName().stripDialect() << ": "
           << stringifyTensixFidelity(op.getFidelity()) << " -> "
           << stringifyTensixFidelity(TensixFidelity(to)) << ": "
           << tensixPhaseList(from & ~to) << " removed: " << why;
  }

  static std::string bound(StringRef operand, const TensixOperandBits &bits) {
    return (operand + " carries at most " + Twine(bits.bits) +
            " significant bits (" + bits.source + ")")
        .str();
  }

  /// Rewrites `op` from `from` to `to` phases with a remark: "<op>: hifi4
  /// -> lofi: phases 1, 2, 3 removed: <bounds>; <outcome>", or, when
  /// exact-only and not proved `exact`, keeps it and says why.
  template <typename Op>
  void finish(Op op, unsigned to, const std::string &bounds, bool exact,
              std::string outcome) {
    unsigned from = unsigned(op.getFidelity());
    outcome += " (docs/Semantics.md section 7)";
    InFlightDiagnostic remark = op->emitRemark();
    if (exactOnly && !exact) {
      unsigned removed = from & ~to;
      remark << op->getName().stripDialect() << ": "
             << stringifyTensixFidelity(op.getFidelity())
             << " kept (exact-only): " << tensixPhaseList(removed)
             << ((removed & (removed - 1)) ? " multiply" : " multiplies")
             << " only zeros (" << bounds << "), but " << outcome;
      return;
    }
    describe(remark, op, to, bounds + "; " + outcome);
    op.setFidelity(TensixFidelity(to));
  }

  /// mul_tiles from a zeroed Dest: a zero phase adds nothing while no
  /// product's exponent passes Dest's largest (core::
  /// tensixDroppedPhasesExact); proved on constant operands.
  void rewrite(TensixEltwiseOp op) {
    unsigned from = unsigned(op.getFidelity());
    TensixOperandBits a = tensixOperandBits(op.getLhs(), op.getSrc());
    TensixOperandBits b = tensixOperandBits(op.getRhs(), op.getSrc());
    unsigned to = kept(
        from, from & ~core::tensixIdlePhases(from, a.bits, b.bits));
    if (to == from)
      return;
    auto dest = core::TensixDest(op.getDest());
    int largest = core::tensixDestLargestExponent(dest);
    std::optional<int> products = largestProductExponent(op);
    bool exact = products && core::tensixDroppedPhasesExact(dest, *products);
    std::string outcome;
    if (!products)
      outcome = "exact while no product's exponent ea + eb + r passes "
                "Dest's largest, " + std::to_string(largest) +
                " (past it a phase whose products are zero realigns a "
                "saturated Dest)";
    else if (exact)
      outcome = "exact: a phase whose products are zero adds nothing to a "
                "zeroed Dest while no product's exponent passes Dest's "
                "largest, " + std::to_string(largest);
    else
      outcome = "not exact: the products reach exponent " +
                std::to_string(*products) + ", past Dest's largest, " +
                std::to_string(largest) +
                ", where a phase whose products are zero realigns the "
                "saturated Dest";
    finish(op, to, bound("lhs (SrcA)", a) + " and " + bound("rhs (SrcB)", b),
           exact, outcome);
  }

  /// The largest product exponent of an elementwise mul of constants, with
  /// splats read once; none when an operand is not a constant.
  static std::optional<int> largestProductExponent(TensixEltwiseOp op) {
    std::optional<RawConstant> a = rawConstantOf(op.getLhs(), 4);
    std::optional<RawConstant> b = rawConstantOf(op.getRhs(), 4);
    if (!a || !b)
      return std::nullopt;
    auto count = [](const RawConstant &c) {
      return c.splat ? size_t(1) : c.data.size() / 4;
    };
    return core::tensixLargestProductExponent(
        core::TensixDest(op.getDest()), core::TensixSrc(op.getSrc()),
        a->bytes(), count(*a), b->bytes(), count(*b));
  }

  void rewrite(TensixMatmulOp op) {
    unsigned from = unsigned(op.getFidelity());
    TensixOperandBits in0 = tensixOperandBits(op.getIn0(), op.getIn0Src());
    TensixOperandBits in1 = tensixOperandBits(op.getIn1(), op.getIn1Src());
    unsigned to = kept(from, core::tensixUsefulPhases(from, in0.bits, in1.bits));
    if (to == from)
      return;
    bool exact = false;
    std::string outcome;
    size_t outputs = *checkedElementCount(op.getType()); // verified (D76)
    if (auto changed = changedOutputs(op, to)) {
      exact = changed->first == 0;
      outcome = exact ? "exact: 0 of " + std::to_string(outputs) +
                            " outputs change"
                      : std::to_string(changed->first) + " of " +
                            std::to_string(outputs) +
                            " outputs change (first at index " +
                            std::to_string(changed->second) +
                            "): the removed MVMULs realign Dest";
    } else {
      outcome = "exact except where a cancelling sum or a saturated Dest is "
                "realigned (the removed MVMULs still align Dest to their "
                "products' exponents)";
    }
    finish(op, to, bound("in0 (SrcB)", in0) + " and " + bound("in1 (SrcA)", in1),
           exact, outcome);
  }
};

} // namespace
