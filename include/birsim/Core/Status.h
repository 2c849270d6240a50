//===- Status.h - Error values of the core ----------------------*- C++ -*-===//
//
// The core reports errors by value (MLIR code builds with -fno-exceptions).
// A Status carries a code and the subject it names; message() renders the
// simulator's own text where the simulator has one.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_STATUS_H
#define BIRSIM_CORE_STATUS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace birsim::core {

/// Numeric values are the C ABI's status codes (Runtime.h).
enum class ErrorCode : int {
  ok = 0,
  invalidArgument = -1,         ///< null buffer, bad op/format/config
  unknownDtype = -2,            ///< not a Dtypes.def row: "Unknown dtype"
  unsupportedDtype = -3,        ///< "cast_accumulate: unsupported dtype <name>"
  unmappedAluOp = -4,           ///< AluOpType2MemoryReduction assertion
  unsupportedCollectiveOp = -5, ///< doReduction assertion
  indexOutOfRange = -6,         ///< scatter index outside the destination
  notCastable = -7,             ///< packed dtype given to the cast engine
  invalidOp = -8,               ///< not a MemoryReductionOps.def row
  invalidFormat = -9,           ///< not a BfpFormats.def row
  invalidTileShape = -10,       ///< not a BfpTileShapes.def row
  notDmaDtype = -11,            ///< not a DmaDtypes.def row
};

struct Status {
  ErrorCode code = ErrorCode::ok;
  int64_t subject = 0; ///< the dtype, AluOpType, op, index... it names
                       ///< (invalidArgument: the offending value, 0 = none)
  int64_t bound = 0;   ///< index bound for indexOutOfRange
  const char *detail = nullptr; ///< invalidArgument: what was wrong
  bool subjectIsSize = false;   ///< the subject is a size_t (printed unsigned)

  static Status success() { return {}; }
  static Status error(ErrorCode code, int64_t subject = 0, int64_t bound = 0,
                      const char *detail = nullptr) {
    return {code, subject, bound, detail};
  }
  /// invalidArgument for a size the caller passed (a count, an extent, a
  /// number of sources): printed unsigned, so 2^63 is not "-9223372036854775808".
  static Status invalidSize(size_t got, const char *detail) {
    return {ErrorCode::invalidArgument, int64_t(got), 0, detail, true};
  }
  bool ok() const { return code == ErrorCode::ok; }
  explicit operator bool() const { return !ok(); } // true on error
  std::string message() const;
};

/// No buffer holds more than PTRDIFF_MAX bytes: a count of `bytes`-wide
/// elements beyond that is a caller bug, reported before any access.
inline Status checkCount(size_t count, size_t bytes) {
  if (bytes != 0 && count > size_t(PTRDIFF_MAX) / bytes)
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "element count times element size overflows the "
                         "address space");
  return Status::success();
}

/// The C ABI's buffer rules: null is allowed only with a zero count, and
/// `count` elements of `bytes` (the widest buffer's) must be addressable.
inline Status checkBuffers(const void *dst, const void *src, size_t count,
                           size_t bytes) {
  if (count != 0 && (!dst || !src))
    return Status::error(ErrorCode::invalidArgument, 0, 0,
                         "null buffer with a non-zero element count");
  return checkCount(count, bytes);
}

/// Destination and source may be the same buffer where each element is read
/// before it is written at the same place (`exactAllowed`), never partly
/// overlap (docs/Decisions.md D18): with vector steps and threads a partial
/// overlap would make the result depend on the path.
inline Status overlapError(bool exactAllowed) {
  return Status::error(ErrorCode::invalidArgument, 0, 0,
                       exactAllowed ? "source and destination partly overlap"
                                    : "source and destination overlap");
}
inline Status checkNoOverlap(const void *dst, size_t dstBytes, const void *src,
                             size_t srcBytes, bool exactAllowed) {
  auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  if (dstBytes == 0 || srcBytes == 0 || d + dstBytes <= s || s + srcBytes <= d)
    return Status::success();
  if (exactAllowed && d == s && dstBytes == srcBytes)
    return Status::success();
  return overlapError(exactAllowed);
}

} // namespace birsim::core

#endif // BIRSIM_CORE_STATUS_H
