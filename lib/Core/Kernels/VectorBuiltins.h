//===- VectorBuiltins.h - lane-wise builtins of either compiler -*- C++ -*-===//
//
// Private to lib/Core. The lane-wise operations the vector paths take from
// clang's __builtin_elementwise_*, for GCC too, which lacks them: its
// vector extension compares and selects lane by lane, and the lane loops
// below compile to the target's instructions (VFMADD, VROUNDPS, VANDPS).
// Macros, not templates: GCC drops a vector typedef's attribute when it
// deduces a template argument (-Wignored-attributes), __typeof__ keeps it.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_VECTORBUILTINS_H
#define BIRSIM_LIB_CORE_KERNELS_VECTORBUILTINS_H

#include <cmath>

#define BIRSIM_STRINGIFY(Text) #Text

namespace birsim::core::kernel {
/// `Bytes` bytes of `Lane` lanes. A class template: GCC takes vector_size
/// of a dependent size there, and the type stays dependent in templates.
template <class Lane, unsigned Bytes> struct VectorOf {
  typedef Lane type __attribute__((vector_size(Bytes)));
};
} // namespace birsim::core::kernel

#if defined(__clang__)

/// Lane-wise minimum and maximum (signed or unsigned, as the lanes are),
/// |x| of float lanes, a * b + c with one rounding, rounding toward zero.
#define BIRSIM_VECTOR_MIN(a, b) __builtin_elementwise_min(a, b)
#define BIRSIM_VECTOR_MAX(a, b) __builtin_elementwise_max(a, b)
#define BIRSIM_VECTOR_ABS(x) __builtin_elementwise_abs(x)
#define BIRSIM_VECTOR_FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#define BIRSIM_VECTOR_TRUNC(x) __builtin_elementwise_trunc(x)
/// Inside a function body: no multiply-add contracted into an FMA there.
#define BIRSIM_FP_CONTRACT_OFF _Pragma("clang fp contract(off)")
/// Before a loop: clang's loop hints.
#define BIRSIM_LOOP_HINT(Hints) _Pragma(BIRSIM_STRINGIFY(clang loop Hints))

#else // GCC

#define BIRSIM_VECTOR_MIN(a, b)                                                \
  ({                                                                           \
    __typeof__(a) a_ = (a), b_ = (b);                                          \
    a_ < b_ ? a_ : b_;                                                         \
  })
#define BIRSIM_VECTOR_MAX(a, b)                                                \
  ({                                                                           \
    __typeof__(a) a_ = (a), b_ = (b);                                          \
    a_ > b_ ? a_ : b_;                                                         \
  })
#define BIRSIM_VECTOR_LANEWISE(Function, x)                                    \
  ({                                                                           \
    __typeof__(x) r_ = (x);                                                    \
    for (unsigned i_ = 0; i_ < sizeof r_ / sizeof r_[0]; ++i_)                 \
      r_[i_] = Function(r_[i_]);                                               \
    r_;                                                                        \
  })
#define BIRSIM_VECTOR_ABS(x) BIRSIM_VECTOR_LANEWISE(std::fabs, x)
#define BIRSIM_VECTOR_TRUNC(x) BIRSIM_VECTOR_LANEWISE(std::trunc, x)
#define BIRSIM_VECTOR_FMA(a, b, c)                                             \
  ({                                                                           \
    __typeof__(a) r_ = (a), b_ = (b), c_ = (c);                                \
    for (unsigned i_ = 0; i_ < sizeof r_ / sizeof r_[0]; ++i_)                 \
      r_[i_] = std::fma(r_[i_], b_[i_], c_[i_]);                               \
    r_;                                                                        \
  })
/// GCC builds everything with -ffp-contract=off (CMakeLists.txt).
#define BIRSIM_FP_CONTRACT_OFF
#define BIRSIM_LOOP_HINT(Hints)

#endif

#endif // BIRSIM_LIB_CORE_KERNELS_VECTORBUILTINS_H
