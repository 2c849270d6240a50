// RUN: birsim-opt %s --birsim-to-llvm -split-input-file -verify-diagnostics
// RUN: not birsim-opt %s --birsim-to-llvm -split-input-file 2>&1 | FileCheck %s --check-prefix=EXIT

// birsim-to-llvm never succeeds with a module that cannot run: an upstream
// cast to an fp8 type that --convert-to-birsim was not asked to map stays in
// arith, which LLVM cannot lower (birsim-verify-lowered).
// EXIT: error: 'arith.truncf' was not lowered to the LLVM dialect

func.func @forgot_convert_to_birsim(%x: f32, %m: memref<1xf8E4M3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'arith.truncf' was not lowered to the LLVM dialect, so the module cannot run; run --convert-to-birsim first}}
  %y = arith.truncf %x : f32 to f8E4M3
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' was not lowered to the LLVM dialect}}
  memref.store %y, %m[%c0] : memref<1xf8E4M3>
  return
}

// -----

// A truncf with a rounding mode the cast engine does not have stays even
// after --convert-to-birsim (with its remark there); the lowering says so.
func.func @toward_zero(%x: tensor<4xf32>) -> tensor<4xf8E5M2> {
  // expected-error @+2 {{'arith.truncf' was not lowered to the LLVM dialect}}
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' was not lowered}}
  %y = arith.truncf %x toward_zero : tensor<4xf32> to tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}
