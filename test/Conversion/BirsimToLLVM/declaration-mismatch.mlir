// RUN: birsim-opt %s -convert-birsim-to-llvm -split-input-file -verify-diagnostics | FileCheck %s

// An existing declaration of a runtime function must have the type that
// include/birsim/Runtime/RuntimeFunctions.def (checked against Runtime.h)
// gives; otherwise the lowering fails loudly instead of calling a wrong ABI.

llvm.func @birsim_accumulate(i32, !llvm.ptr, !llvm.ptr, i32) -> i32

func.func @stale_declaration(%dst: memref<4xbf16>, %src: memref<4xbf16>) {
  // expected-error @+2 {{runtime function 'birsim_accumulate' is already declared as '!llvm.func<i32 (i32, ptr, ptr, i32)>', but Runtime.h declares '!llvm.func<i32 (i32, ptr, ptr, i32, i64)>'}}
  // expected-error @+1 {{failed to legalize operation 'birsim.reduce_into' that was explicitly marked illegal}}
  birsim.reduce_into add %dst, %src : memref<4xbf16>
  return
}

// -----

func.func private @birsim_cast(i32) -> i32

func.func @clashing_symbol(%src: memref<4xf32>, %dst: memref<4xbf16>) {
  // expected-error @+2 {{runtime function 'birsim_cast' clashes with a 'func.func' of that name; Runtime.h declares '!llvm.func<i32 (i32, ptr, i32, ptr, i64, i32)>'}}
  // expected-error @+1 {{failed to legalize operation 'birsim.cast_into'}}
  birsim.cast_into %src, %dst : memref<4xf32> to memref<4xbf16>
  return
}

// -----

// A matching declaration is reused, not duplicated.
// CHECK-LABEL: llvm.func @birsim_check_status
// CHECK-NOT: llvm.func @birsim_check_status
llvm.func @birsim_check_status(i32, !llvm.ptr)

func.func @matching_declaration(%dst: memref<4xf32>, %src: memref<4xf32>) {
  birsim.reduce_into add %dst, %src : memref<4xf32>
  return
}
