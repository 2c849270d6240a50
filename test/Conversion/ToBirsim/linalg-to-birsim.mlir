// RUN: birsim-opt %s --convert-linalg-to-birsim="reduce-add=true int-casts=true" -split-input-file | FileCheck %s

// A generic whose body is one truncf of its input becomes one birsim.cast
// of the whole tensor.
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @generic_truncf
// CHECK: %[[C:.*]] = birsim.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf8E5M2>
// CHECK-NOT: linalg.generic
// CHECK: return %[[C]]
func.func @generic_truncf(%x: tensor<4x8xf32>, %init: tensor<4x8xf8E5M2>) -> tensor<4x8xf8E5M2> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x8xf8E5M2>) {
  ^bb0(%in: f32, %out: f8E5M2):
    %t = arith.truncf %in : f32 to f8E5M2
    linalg.yield %t : f8E5M2
  } -> tensor<4x8xf8E5M2>
  return %0 : tensor<4x8xf8E5M2>
}

// -----

// Named ops through the interface: linalg.add is birsim.reduce add with
// input 0 as dst and input 1 as src.
// CHECK-LABEL: func.func @named_add
// CHECK: birsim.reduce add %arg1, %arg0 : tensor<16xbf16>
func.func @named_add(%a: tensor<16xbf16>, %b: tensor<16xbf16>, %init: tensor<16xbf16>) -> tensor<16xbf16> {
  %0 = linalg.add ins(%b, %a : tensor<16xbf16>, tensor<16xbf16>) outs(%init : tensor<16xbf16>) -> tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// -----

// linalg.copy to another element type (its body casts) and
// linalg.elementwise, through the interface too.
// CHECK-LABEL: func.func @named_copy_elementwise
// CHECK: birsim.cast %arg0 : tensor<4xf32> to tensor<4xbf16>
// CHECK: birsim.reduce add %arg1, %arg2 : tensor<4xbf16>
func.func @named_copy_elementwise(%a: tensor<4xf32>, %b: tensor<4xbf16>, %c: tensor<4xbf16>)
    -> (tensor<4xbf16>, tensor<4xbf16>) {
  %0 = linalg.copy ins(%a : tensor<4xf32>) outs(%b : tensor<4xbf16>) -> tensor<4xbf16>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<add>
      ins(%b, %c : tensor<4xbf16>, tensor<4xbf16>) outs(%b : tensor<4xbf16>) -> tensor<4xbf16>
  return %0, %1 : tensor<4xbf16>, tensor<4xbf16>
}

// -----

// fptosi of roundeven (tosa-to-linalg's shape) is one birsim.cast.
// CHECK-LABEL: func.func @round_to_int
// CHECK: birsim.cast %arg0 : tensor<8xf32> to tensor<8xi8>
func.func @round_to_int(%x: tensor<8xf32>, %init: tensor<8xi8>) -> tensor<8xi8> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<8xi8>) {
  ^bb0(%in: f32, %out: i8):
    %r = math.roundeven %in : f32
    %i = arith.fptosi %r : f32 to i8
    linalg.yield %i : i8
  } -> tensor<8xi8>
  return %0 : tensor<8xi8>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// What stays: a broadcast, a captured value, the init operand read, a
// dynamic shape, a reduction, two ops in the body.
// CHECK-LABEL: func.func @stay
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT: birsim.
func.func @stay(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %c: f32, %i2: tensor<4x8xf32>,
                %dyn: tensor<?xf32>, %i1: tensor<?xbf16>, %acc: tensor<4xf32>, %ib: tensor<4x8xbf16>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?xbf16>, tensor<4xf32>, tensor<4x8xbf16>) {
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %row : tensor<4x8xf32>, tensor<8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%i2 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%dyn : tensor<?xf32>) outs(%i1 : tensor<?xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?xbf16>
  %4 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%ib : tensor<4x8xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %n = arith.negf %a : f32
    %t = arith.truncf %n : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x8xbf16>
  return %0, %1, %2, %3, %4, %5 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<?xbf16>, tensor<4xf32>, tensor<4x8xbf16>
}
