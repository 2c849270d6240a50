//===- VectorBuiltins.h - lane-wise builtins of either compiler -*- C++ -*-===//
//
// Private to lib/Core. The lane-wise operations the vector paths take from
// clang's __builtin_elementwise_*, for GCC too, which lacks them: its
// vector extension compares and selects lane by lane, the lane loop of fma
// below compiles to VFMADD, and |x| and trunc are bit operations and
// conversions.
// Macros, not templates: GCC drops a vector typedef's attribute when it
// deduces a template argument (-Wignored-attributes), __typeof__ keeps it.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_LIB_CORE_KERNELS_VECTORBUILTINS_H
#define BIRSIM_LIB_CORE_KERNELS_VECTORBUILTINS_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#define BIRSIM_STRINGIFY(Text) #Text

namespace birsim::core::kernel {
/// `Bytes` bytes of `Lane` lanes. A class template: GCC takes vector_size
/// of a dependent size there, and the type stays dependent in templates.
template <class Lane, unsigned Bytes> struct VectorOf {
  typedef Lane type __attribute__((vector_size(Bytes)));
};
} // namespace birsim::core::kernel

/// A kernel's loop, kept out of line (its entry dispatches to it once per
/// call). GCC also inlines every call inside it (flatten): left to itself
/// it keeps the vocabulary's small helpers out of line there and passes
/// their vector blocks through memory; clang inlines them already.
#if defined(__clang__)
#define BIRSIM_KERNEL_LOOP __attribute__((noinline))
#else
#define BIRSIM_KERNEL_LOOP __attribute__((noinline, flatten))
#endif

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
/// |x|: the sign bits cleared (GCC leaves a lane loop of fabs scalar).
#define BIRSIM_VECTOR_ABS(x)                                                   \
  ({                                                                           \
    __typeof__(x) r_ = (x);                                                    \
    using lane_ = std::conditional_t<sizeof r_[0] == 8, int64_t, int32_t>;     \
    using bits_ =                                                              \
        typename ::birsim::core::kernel::VectorOf<lane_, sizeof r_>::type;     \
    (__typeof__(r_))((bits_)r_ & std::numeric_limits<lane_>::max());           \
  })
/// trunc of float lanes (GCC leaves a lane loop of trunc scalar): below
/// 2^23 through the integers with the sign put back (trunc(-0.5) is -0),
/// at or above it (whole already, Inf, NaN) the lane itself.
#define BIRSIM_VECTOR_TRUNC(x)                                                 \
  ({                                                                           \
    __typeof__(x) r_ = (x);                                                    \
    static_assert(sizeof r_[0] == 4, "float lanes");                           \
    using bits_ =                                                              \
        typename ::birsim::core::kernel::VectorOf<int32_t, sizeof r_>::type;   \
    bits_ b_ = (bits_)r_, m_ = b_ & 0x7FFFFFFF;                                \
    bits_ w_ = (bits_) __builtin_convertvector(                                \
        __builtin_convertvector(r_, bits_), __typeof__(r_));                   \
    (__typeof__(r_))(m_ < 0x4B000000 ? (w_ | (b_ & INT32_MIN)) : b_);          \
  })
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
