// RUN: birsim-opt %s --convert-arith-to-birsim -split-input-file -verify-diagnostics | FileCheck %s
// RUN: birsim-opt %s --convert-arith-to-birsim="reduce-add=true int-casts=true fp8-config=none" -split-input-file | FileCheck %s --check-prefix=ALL

// truncf/extf between birsim's float types, on scalars, vectors and
// tensors, become birsim.cast with the cast engine's default config;
// fastmath flags do not matter.
// CHECK-LABEL: func.func @casts
// CHECK: birsim.cast %{{.*}} : f32 to bf16
// CHECK: birsim.cast %{{.*}} : vector<4xf32> to vector<4xf8E4M3FN>
// CHECK: birsim.cast %{{.*}} : tensor<2xf8E5M2> to tensor<2xf16>
// CHECK: birsim.cast %{{.*}} : tensor<2xf32> to tensor<2xf8E3M4>
// CHECK-NOT: arith.
// ALL-LABEL: func.func @casts
// ALL: birsim.cast %{{.*}} fp8_config<none> : f32 to bf16
func.func @casts(%a: f32, %v: vector<4xf32>, %t: tensor<2xf8E5M2>, %u: tensor<2xf32>)
    -> (bf16, vector<4xf8E4M3FN>, tensor<2xf16>, tensor<2xf8E3M4>) {
  %0 = arith.truncf %a fastmath<fast> : f32 to bf16
  %1 = arith.truncf %v : vector<4xf32> to vector<4xf8E4M3FN>
  %2 = arith.extf %t : tensor<2xf8E5M2> to tensor<2xf16>
  %3 = arith.truncf %u : tensor<2xf32> to tensor<2xf8E3M4>
  return %0, %1, %2, %3 : bf16, vector<4xf8E4M3FN>, tensor<2xf16>, tensor<2xf8E3M4>
}

// -----

// A rounding mode other than to_nearest_even is refused, with a remark; so
// is a type birsim has no dtype for (f64, f8E8M0FNU); the int casts and
// adds need their options.
// CHECK-LABEL: func.func @refused
// CHECK: arith.truncf %{{.*}} to_nearest_away : f32 to bf16
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.sitofp
// CHECK: arith.addf
func.func @refused(%a: f32, %d: f64, %i: i32, %b: bf16) -> (bf16, f32, f32, bf16) {
  // expected-remark @+1 {{not converted to birsim.cast: roundingmode to_nearest_away, where the cast engine rounds to nearest even (docs/Semantics.md section 4)}}
  %0 = arith.truncf %a to_nearest_away : f32 to bf16
  // expected-remark @+1 {{not converted to birsim.cast: source 'f64' is not a float type of the cast engine (f32, bf16, f16 and the fp8 types of docs/Semantics.md section 1)}}
  %1 = arith.truncf %d : f64 to f32
  %2 = arith.sitofp %i : i32 to f32
  %3 = arith.addf %b, %b : bf16
  return %0, %1, %2, %3 : bf16, f32, f32, bf16
}

// -----

// int-casts: sitofp from signless integers; fptosi only of math.roundeven
// (the roundeven goes with it); uitofp, fptoui, i1 and index stay.
// ALL-LABEL: func.func @int_casts
// ALL: birsim.cast %{{.*}} fp8_config<none> : tensor<4xi32> to tensor<4xbf16>
// ALL: birsim.cast %[[X:.*]] fp8_config<none> : tensor<4xf32> to tensor<4xi8>
// ALL-NOT: math.roundeven
// ALL: arith.fptosi
// ALL: arith.uitofp
// ALL: arith.sitofp %{{.*}} : i1 to f32
func.func @int_casts(%i: tensor<4xi32>, %x: tensor<4xf32>, %u: i32, %b: i1, %f: f32)
    -> (tensor<4xbf16>, tensor<4xi8>, i32, f32, f32) {
  %0 = arith.sitofp %i : tensor<4xi32> to tensor<4xbf16>
  %r = math.roundeven %x : tensor<4xf32>
  %1 = arith.fptosi %r : tensor<4xf32> to tensor<4xi8>
  %2 = arith.fptosi %f : f32 to i32
  %3 = arith.uitofp %u : i32 to f32
  %4 = arith.sitofp %b : i1 to f32
  return %0, %1, %2, %3, %4 : tensor<4xbf16>, tensor<4xi8>, i32, f32, f32
}

// -----

// reduce-add: addf on the reducing floats, addi on i32/i64, dst = lhs;
// f8E4M3FN does not reduce and i8 add is no bir::Dtype reduction.
// ALL-LABEL: func.func @adds
// ALL: birsim.reduce add %arg0, %arg1 : tensor<4xbf16>
// ALL: birsim.reduce add %arg2, %arg2 : i32
// ALL: arith.addf %{{.*}} : f8E4M3FN
// ALL: arith.addi %{{.*}} : i8
func.func @adds(%a: tensor<4xbf16>, %b: tensor<4xbf16>, %i: i32, %e: f8E4M3FN, %s: i8)
    -> (tensor<4xbf16>, i32, f8E4M3FN, i8) {
  %0 = arith.addf %a, %b : tensor<4xbf16>
  %1 = arith.addi %i, %i : i32
  %2 = arith.addf %e, %e : f8E4M3FN
  %3 = arith.addi %s, %s : i8
  return %0, %1, %2, %3 : tensor<4xbf16>, i32, f8E4M3FN, i8
}

// -----

// Ops inside a linalg body are the linalg pass's.
// CHECK-LABEL: func.func @in_linalg
// CHECK: linalg.generic
// CHECK: arith.truncf
func.func @in_linalg(%x: tensor<4xf32>, %init: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%init : tensor<4xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
