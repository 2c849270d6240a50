//===- ToBirsim.h - upstream dialects to birsim ops -------------*- C++ -*-===//
//
// The conversions that map what frontends emit (linalg, tosa, arith) to the
// birsim ops with the simulator's numerics (docs/Conversions.md), as
// pattern sets another compiler adds to its own, in the manner of
// upstream's populate*Patterns functions. The passes
// (--convert-{linalg,tosa,arith}-to-birsim, --convert-to-birsim) apply
// them with walkAndApplyPatterns.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CONVERSION_TOBIRSIM_TOBIRSIM_H
#define BIRSIM_CONVERSION_TOBIRSIM_TOBIRSIM_H

#include "birsim/Dialect/Birsim/IR/BirsimOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace birsim {

/// What the conversions map, as the passes' options set it (Passes.td).
struct ToBirsimPolicy {
  /// The FP8ConversionConfig of the birsim.cast ops made.
  Fp8Config fp8Config = Fp8Config::saturate;
  /// arith.addf/addi on the reducing dtypes to birsim.reduce add.
  bool reduceAdd = false;
  /// arith.sitofp and arith.fptosi(math.roundeven) to birsim.cast.
  bool intCasts = false;
  /// A remark on each op left for a reason other than the policy (the
  /// passes visit each op once; a driver that retries patterns repeats
  /// them, so such a driver may turn them off).
  bool remarks = true;
};

/// The arith ops the conversions map (docs/Conversions.md), the one list
/// the patterns, the linalg bodies and the lowering's hints read; which
/// birsim op each becomes, under which policy flag, is checkMappable's.
#define BIRSIM_TO_BIRSIM_ARITH_OPS                                             \
  ::mlir::arith::TruncFOp, ::mlir::arith::ExtFOp, ::mlir::arith::SIToFPOp,     \
      ::mlir::arith::FPToSIOp, ::mlir::arith::AddFOp, ::mlir::arith::AddIOp

/// Whether `op` is one the to-birsim patterns map, policy and types
/// permitting: an op of BIRSIM_TO_BIRSIM_ARITH_OPS, tosa.cast, or a linalg
/// op (for its body).
bool isToBirsimCandidate(mlir::Operation *op);

/// arith.truncf, extf, sitofp, fptosi (of math.roundeven), addf and addi
/// outside linalg bodies, to birsim.cast and birsim.reduce add.
void populateArithToBirsimPatterns(mlir::RewritePatternSet &patterns,
                                   const ToBirsimPolicy &policy);

/// tosa.cast between float types to birsim.cast.
void populateTosaToBirsimPatterns(mlir::RewritePatternSet &patterns,
                                  const ToBirsimPolicy &policy);

/// Elementwise linalg ops whose body is mapped scalar ops (a chain such as
/// a fake-quant truncf + extf included) to whole-tensor birsim ops.
void populateLinalgToBirsimPatterns(mlir::RewritePatternSet &patterns,
                                    const ToBirsimPolicy &policy);

} // namespace birsim

#endif
