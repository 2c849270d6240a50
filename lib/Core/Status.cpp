//===- Status.cpp - Error texts -------------------------------------------===//
#include "birsim/Core/Status.h"
#include "birsim/Core/Dtype.h"
#include "birsim/Core/Bfp.h"
#include "birsim/Core/Enums.h"
#include "TextList.h"

namespace birsim::core {

static std::string dtypeText(int64_t dtype) {
  const DtypeInfo *info = lookupDtype(int(dtype));
  return info ? info->name : "<dtype " + std::to_string(dtype) + ">";
}

static std::string aluOpText(int64_t aluOp) {
  const char *name = aluOpTypeName(int(aluOp));
  return (name ? std::string(name) : std::string("<unknown>")) + " (" +
         std::to_string(aluOp) + ")";
}

/// "a=0, b=1 or c=2": every row of an enumeration's table, by name.
static std::string choices(int count, const char *(*nameOf)(int)) {
  std::vector<std::string> items;
  for (int i = 0; i < count; ++i)
    items.push_back(nameOf(i) + ("=" + std::to_string(i)));
  return textList(items);
}

/// DmaDtypes.def's rows, by bir::Dtype name.
static std::string dmaDtypeChoices() {
  std::vector<std::string> items;
#define BIRSIM_DMA_DTYPE(Enumerator, NkiName)                                  \
  items.push_back(dtypeInfo(Dtype::Enumerator).name);
#include "birsim/Core/DmaDtypes.def"
  return textList(items);
}

static const char *bfpFormatName(int format) {
  return lookupBfpFormat(format)->name;
}

std::string Status::message() const {
  switch (code) {
  case ErrorCode::ok:
    return "";
  case ErrorCode::invalidArgument:
    return std::string("invalid argument: ") + (detail ? detail : "") +
           (!subject ? ""
            : subjectIsSize
                ? " (got " + std::to_string(uint64_t(subject)) + ")"
                : " (got " + std::to_string(subject) + ")");
  case ErrorCode::invalidOp:
    return "invalid MemoryReductionOp " + std::to_string(subject) +
           ": expected " +
           choices(kNumMemoryReductionOps, memoryReductionOpName);
  case ErrorCode::invalidFormat:
    return "unknown BFP format " + std::to_string(subject) +
           ": expected " + choices(kNumBfpFormats, bfpFormatName);
  case ErrorCode::invalidTileShape:
    return "BFP tile shape " + std::to_string(subject) + "x" +
           std::to_string(bound) + " is not one tt-metal accepts: expected " +
           bfpTileShapeChoices();
  case ErrorCode::unknownDtype: // Dtype.h:50
    return "Unknown dtype " + std::to_string(subject);
  case ErrorCode::unsupportedDtype: // string @ 0x5c9608 + Dtype2string
    return "cast_accumulate: unsupported dtype " + dtypeText(subject);
  case ErrorCode::unmappedAluOp:
    return "AluOpType2MemoryReduction: AluOpType " + aluOpText(subject) +
           " has no MemoryReductionOp; only bypass and add map "
           "(inst_visitor.cpp:363)";
  case ErrorCode::unsupportedCollectiveOp:
    return "collective doReduction: AluOpType " + aluOpText(subject) +
           " is not add, max or min (inst_visitor.cpp:5365)";
  case ErrorCode::indexOutOfRange:
    return "scatter index " + std::to_string(subject) +
           " is outside the destination of " + std::to_string(uint64_t(bound)) +
           " elements";
  case ErrorCode::notDmaDtype:
    return "dma_compute: dtype " + dtypeText(subject) +
           " is not one the DMA engine computes on: expected " +
           dmaDtypeChoices();
  case ErrorCode::notCastable:
    return "cast: dtype " + dtypeText(subject) +
           " is packed and outside the cast engine";
  }
  return "unknown error";
}

} // namespace birsim::core
