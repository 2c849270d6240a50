// RUN: birsim-opt %s --convert-linalg-to-birsim="reduce-add=true int-casts=true" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: birsim-opt %s --convert-to-birsim="int-casts=true" -canonicalize -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FOLD

#id = affine_map<(d0) -> (d0)>

// A fake quantization (truncf to f8E4M3FN, extf back, what QAT exports):
// two birsim.cast ops, which fold on a constant weight.
// CHECK-LABEL: func.func @fake_quant
// CHECK: %[[Q:.*]] = birsim.cast %{{.*}} : tensor<4xf32> to tensor<4xf8E4M3FN>
// CHECK: %[[D:.*]] = birsim.cast %[[Q]] : tensor<4xf8E4M3FN> to tensor<4xf32>
// CHECK: return %[[D]]
// FOLD-LABEL: func.func @fake_quant
// FOLD-NEXT: arith.constant dense<[0.1015625, 4.480000e+02, -3.250000e+00, 0.000000e+00]> : tensor<4xf32>
func.func @fake_quant() -> tensor<4xf32> {
  %w = arith.constant dense<[0.1, 1000.0, -3.3, 1.0e-9]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %in : f32 to f8E4M3FN
    %e = arith.extf %t : f8E4M3FN to f32
    linalg.yield %e : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Integer fake quantization under int-casts: fptosi(roundeven) to i8 and
// sitofp back.
// CHECK-LABEL: func.func @int_fake_quant
// CHECK: %[[I:.*]] = birsim.cast %{{.*}} : tensor<4xf32> to tensor<4xi8>
// CHECK: birsim.cast %[[I]] : tensor<4xi8> to tensor<4xf32>
// CHECK-NOT: linalg.generic
// FOLD-LABEL: func.func @int_fake_quant
// FOLD-NEXT: arith.constant dense<[2.000000e+00, 1.270000e+02, -4.000000e+00, -1.280000e+02]> : tensor<4xf32>
func.func @int_fake_quant() -> tensor<4xf32> {
  %w = arith.constant dense<[2.5, 1000.0, -3.5, -300.0]> : tensor<4xf32>
  %init = tensor.empty() : tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.roundeven %in : f32
    %i = arith.fptosi %r : f32 to i8
    %f = arith.sitofp %i : i8 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Widen two bf16 inputs and add them in f32: two casts and a reduce.
// CHECK-LABEL: func.func @widen_and_add
// CHECK: %[[A:.*]] = birsim.cast %arg0 : tensor<8xbf16> to tensor<8xf32>
// CHECK: %[[B:.*]] = birsim.cast %arg1 : tensor<8xbf16> to tensor<8xf32>
// CHECK: birsim.reduce add %[[A]], %[[B]] : tensor<8xf32>
func.func @widen_and_add(%a: tensor<8xbf16>, %b: tensor<8xbf16>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xbf16>, tensor<8xbf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %s = arith.addf %xe, %ye : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// What stays, each with a remark naming the reason; a body with nothing
// the conversions map (a negf alone) stays silently.
// CHECK-LABEL: func.func @stay
// CHECK-COUNT-8: linalg.generic
// CHECK-NOT: birsim.
func.func @stay(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %c: f32, %i2: tensor<4x8xf32>,
                %dyn: tensor<?xf32>, %i1: tensor<?xbf16>, %acc: tensor<4xf32>, %ib: tensor<4x8xbf16>,
                %d: tensor<4x8xf64>, %sq: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?xbf16>, tensor<4xf32>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @+1 {{not converted to birsim ops: a transposed result; birsim ops write the result in its own order}}
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<4x4xf32>) outs(%sq : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = arith.extf %a : f32 to f64
    %t = arith.truncf %e : f64 to f32
    linalg.yield %t : f32
  } -> tensor<4x4xf32>
  // expected-remark @+1 {{not converted to birsim ops: a body that reads a value from outside it}}
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // expected-remark @+1 {{not converted to birsim ops: a body that reads the init operand}}
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  // expected-remark @+1 {{not converted to birsim ops: a dynamic shape}}
  %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%dyn : tensor<?xf32>) outs(%i1 : tensor<?xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?xbf16>
  // expected-remark @+1 {{not converted to birsim ops: a reduction; birsim ops are elementwise}}
  %4 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  // expected-remark @+1 {{not converted to birsim ops: its body's 'arith.negf' has no birsim op}}
  %5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%ib : tensor<4x8xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %n = arith.negf %a : f32
    %t = arith.truncf %n : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8xbf16>
  // expected-remark @+1 {{not converted to birsim ops: its body's 'arith.truncf': birsim.cast: source 'f64' is not a float type of the cast engine}}
  %6 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x8xf64>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f64, %o: f32):
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  %7 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?xbf16>, tensor<4xf32>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A broadcast row and a transposed input are materialized in the result's
// shape (a copy with their indexing maps), then added as whole tensors.
// CHECK-LABEL: func.func @broadcast_and_transpose
// CHECK: %[[ROW:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<8xf32>)
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<8x4xf32>)
// CHECK: %[[S:.*]] = birsim.reduce add %arg0, %[[ROW]] : tensor<4x8xf32>
// CHECK: birsim.reduce add %[[S]], %[[T]] : tensor<4x8xf32>
func.func @broadcast_and_transpose(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %y: tensor<8x4xf32>,
                                   %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d1, d0)>, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %row, %y : tensor<4x8xf32>, tensor<8xf32>, tensor<8x4xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
