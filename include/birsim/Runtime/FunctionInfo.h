//===- FunctionInfo.h - a C type as a function table describes it -*- C++
//-*-===//
//
// The rows of birsim_function_info (Runtime.h), for the runtime's table
// (RuntimeFunctions.def) and the compiler library's (birsim-c/
// CompilerFunctions.def): each parameter's spelling, role and what a
// binding needs of its type.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_RUNTIME_FUNCTIONINFO_H
#define BIRSIM_RUNTIME_FUNCTIONINFO_H

#include "birsim/Runtime/Runtime.h"

#include <type_traits>

namespace birsim {

/// A C type as birsim_function_param describes it.
template <typename CType>
constexpr birsim_function_param describeCType(const char *spelling,
                                              const char *role) {
  if constexpr (std::is_void_v<CType>)
    return {spelling, role, "void", 0};
  else if constexpr (std::is_same_v<CType, const char *>)
    return {spelling, role, "string", sizeof(CType)};
  else if constexpr (std::is_pointer_v<CType>)
    return {spelling, role, "pointer", sizeof(CType)};
  else if constexpr (std::is_floating_point_v<CType>)
    return {spelling, role, "float", sizeof(CType)};
  else
    return {spelling, role, std::is_signed_v<CType> ? "signed" : "unsigned",
            sizeof(CType)};
}

} // namespace birsim

#endif // BIRSIM_RUNTIME_FUNCTIONINFO_H
