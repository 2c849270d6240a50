// RUN: birsim-opt %s --birsim-to-llvm -split-input-file -verify-diagnostics
// RUN: not birsim-opt %s --birsim-to-llvm -split-input-file 2>&1 | FileCheck %s --check-prefix=EXIT

// birsim-to-llvm never succeeds with a module that cannot run: an upstream
// cast to an fp8 type that --convert-to-birsim was not asked to map stays in
// arith, which LLVM cannot hold (convert-birsim-to-llvm says so first); an
// op no lowering took is named by birsim-verify-lowered.
// EXIT: error: 'arith.truncf' computes on a float type LLVM does not have

func.func @forgot_convert_to_birsim(%x: f32, %m: memref<1xf8E4M3>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'arith.truncf' computes on a float type LLVM does not have, so no lowering to LLVM can hold it; run --convert-to-birsim first}}
  %y = arith.truncf %x : f32 to f8E4M3
  memref.store %y, %m[%c0] : memref<1xf8E4M3>
  return
}

// -----

// A truncf with a rounding mode the cast engine does not have stays even
// after --convert-to-birsim (with its remark there); the lowering says so.
func.func @toward_zero(%x: tensor<4xf32>) -> tensor<4xf8E5M2> {
  // expected-error @+1 {{'arith.truncf' computes on a float type LLVM does not have}}
  %y = arith.truncf %x toward_zero : tensor<4xf32> to tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// -----

// An op no conversion lowers (math.erf has no LLVM pattern): named, with no
// suggestion, since --convert-to-birsim does not map it either.
func.func @erf(%x: f32, %m: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'math.erf' was not lowered to the LLVM dialect, so the module cannot run}}
  %y = math.erf %x : f32
  memref.store %y, %m[%c0] : memref<1xf32>
  return
}

// -----

// bf16 arithmetic LLVM does have stays upstream's: the pipeline succeeds.
// (Checked by the module below being accepted without diagnostics.)
func.func @bf16_add(%x: bf16, %m: memref<1xbf16>) {
  %c0 = arith.constant 0 : index
  %y = arith.addf %x, %x : bf16
  memref.store %y, %m[%c0] : memref<1xbf16>
  return
}
