//===- PathPrelude.h - what a path includes before its region ---*- C++ -*-===//
//
// Private to lib/Core/Kernels. Every header with non-template inline
// functions that the loops and the lane arithmetic use. A vector path
// includes it (through its ISA's shared header, x86/X86.h) before its target
// region, so those functions are compiled for the baseline in every path,
// as the one-definition rule needs; LaneArithmetic.h and KernelTable.h,
// included inside the region, check that it came first.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_PATHPRELUDE_H
#define BIRSIM_LIB_CORE_KERNELS_PATHPRELUDE_H

#include "birsim/Core/Bfp.h"
#include "birsim/Core/BfpMixed.h"
#include "birsim/Core/Fidelity.h"
#include "birsim/Core/Float.h"
#include "Dispatch.h"
#include "FormatConstants.h"
#include "Kernels.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#endif // BIRSIM_LIB_CORE_KERNELS_PATHPRELUDE_H
