//===- AsanWithUninstrumentedLLVM.h - sanitizer builds only ------*- C++ -*-===//
//
// Force-included in ASan builds (BIRSIM_SANITIZER). birsim is instrumented,
// Debian's libMLIR.so/libLLVM.so are not, and both allocate from the same
// llvm::BumpPtrAllocator slabs. LLVM's inline allocator code compiled into
// birsim would poison slab memory that the uninstrumented library then hands
// out without unpoisoning, so every later read of an MLIR attribute or
// location would be a false "use-after-poison". Only the allocator's manual
// poisoning is switched off here; ASan's own checks all stay on.
//
//===----------------------------------------------------------------------===//
#ifndef BIRSIM_SUPPORT_ASANWITHUNINSTRUMENTEDLLVM_H
#define BIRSIM_SUPPORT_ASANWITHUNINSTRUMENTEDLLVM_H

#include "llvm/Support/Compiler.h"

#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))

#endif
