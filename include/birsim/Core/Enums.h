//===- Enums.h - the simulator's enumerations -------------------*- C++ -*-===//
//
// birsim::MemoryReductionOp and bir::AluOpType (docs/Semantics.md section 1),
// expanded from MemoryReductionOps.def and AluOpTypes.def.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_CORE_ENUMS_H
#define BIRSIM_CORE_ENUMS_H

#include <initializer_list>

namespace birsim::core {

/// A table's Number column reads 0, 1, ..., N-1 (every .def table's rule).
constexpr bool numberedInRowOrder(std::initializer_list<int> numbers) {
  int row = 0;
  for (int number : numbers)
    if (number != row++)
      return false;
  return true;
}

enum class MemoryReductionOp : int {
#define BIRSIM_MEMORY_REDUCTION_OP(Enumerator, Number, CMacro)                 \
  Enumerator = Number,
#include "birsim/Core/MemoryReductionOps.def"
};
constexpr int kNumMemoryReductionOps = 0
#define BIRSIM_MEMORY_REDUCTION_OP(...) +1
#include "birsim/Core/MemoryReductionOps.def"
    ;
const char *memoryReductionOpName(int op); ///< null when not a row

enum class AluOpType : int {
#define BIRSIM_ALU_OP_TYPE(Enumerator, Number, MemoryReduction)                \
  Enumerator = Number,
#include "birsim/Core/AluOpTypes.def"
};
constexpr int kNumAluOpTypes = 0
#define BIRSIM_ALU_OP_TYPE(...) +1
#include "birsim/Core/AluOpTypes.def"
    ;
const char *aluOpTypeName(int aluOp); ///< null when not a row

} // namespace birsim::core

#endif // BIRSIM_CORE_ENUMS_H
