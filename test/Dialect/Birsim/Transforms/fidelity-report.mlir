// The JSON report: one object per analysed op in walk order, every key of
// the op's family, `first` -1 for zero counts. Constants may be dense
// resources.
// RUN: birsim-opt %s --birsim-fidelity=report=%t.json -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.json
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); assert len(r) == 4, r" %t.json
// report=-: the report on stderr after the remarks, the module alone on
// stdout, so that the output still pipes into the next tool.
// RUN: birsim-opt %s --birsim-fidelity=report=- 2>%t.stderr | FileCheck %s --check-prefix=MODULE
// RUN: FileCheck %s --check-prefix=STDERR < %t.stderr
// MODULE-NOT: "elements"
// MODULE: func.func
// MODULE-NOT: "elements"
// STDERR: remark:
// STDERR: [
// STDERR-NEXT: {
// STDERR-NEXT: "op": "birsim.
// A report that cannot be written is an error.
// RUN: not birsim-opt %s --birsim-fidelity=report=%t.missing/dir/r.json -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: birsim-fidelity: cannot write report '{{.*}}r.json'

// CHECK:      [
// CHECK-NEXT:   {
// CHECK-NEXT:     "op": "birsim.reduce",
// CHECK-NEXT:     "loc": "loc(\"r1\")",
// CHECK-NEXT:     "family": "reduce",
// CHECK-NEXT:     "elements": 4,
// CHECK-NEXT:     "counts": {
// CHECK-NEXT:       "sim_inf_device_saturates": 3
// CHECK-NEXT:     },
// CHECK-NEXT:     "first": {
// CHECK-NEXT:       "sim_inf_device_saturates": 0
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "op": "birsim.cast",
// CHECK-NEXT:     "loc": "loc({{.*}}fidelity-report.mlir\":{{[0-9]+}}:{{[0-9]+}})",
// CHECK-NEXT:     "family": "cast",
// CHECK-NEXT:     "elements": 4,
// CHECK-NEXT:     "counts": {
// CHECK-NEXT:       "saturated": 1,
// CHECK-NEXT:       "overflow_to_inf": 0,
// CHECK-NEXT:       "overflow_to_nan": 0,
// CHECK-NEXT:       "nan_suppressed": 0,
// CHECK-NEXT:       "inexact": 0,
// CHECK-NEXT:       "underflow_to_zero": 0
// CHECK-NEXT:     },
// CHECK-NEXT:     "first": {
// CHECK-NEXT:       "saturated": 0,
// CHECK-NEXT:       "overflow_to_inf": -1,
// CHECK-NEXT:       "overflow_to_nan": -1,
// CHECK-NEXT:       "nan_suppressed": -1,
// CHECK-NEXT:       "inexact": -1,
// CHECK-NEXT:       "underflow_to_zero": -1
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "op": "birsim.bfp_pack",
// CHECK-NEXT:     "loc": "loc(\"ties\")",
// CHECK-NEXT:     "family": "bfp_pack",
// CHECK-NEXT:     "elements": 1024,
// CHECK-NEXT:     "counts": {
// CHECK-NEXT:       "flushed_to_zero": 0,
// CHECK-NEXT:       "rounding_ties": 1024,
// CHECK-NEXT:       "saturated": 0,
// CHECK-NEXT:       "exponent_clamped": 0,
// CHECK-NEXT:       "device_differs": 1024
// CHECK-NEXT:     },
// CHECK-NEXT:     "first": {
// CHECK-NEXT:       "flushed_to_zero": -1,
// CHECK-NEXT:       "rounding_ties": 0,
// CHECK-NEXT:       "saturated": -1,
// CHECK-NEXT:       "exponent_clamped": -1,
// CHECK-NEXT:       "device_differs": 0
// CHECK-NEXT:     }
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "op": "birsim.bfp_pack",
// CHECK-NEXT:     "loc": "loc(\"saturates\")",
// CHECK-NEXT:     "family": "bfp_pack",
// CHECK-NEXT:     "elements": 2048,
// CHECK-NEXT:     "counts": {
// CHECK-NEXT:       "flushed_to_zero": 0,
// CHECK-NEXT:       "rounding_ties": 0,
// CHECK-NEXT:       "saturated": 2048,
// CHECK-NEXT:       "exponent_clamped": 0,
// CHECK-NEXT:       "device_differs": 0
// CHECK-NEXT:     },
// CHECK-NEXT:     "first": {
// CHECK-NEXT:       "flushed_to_zero": -1,
// CHECK-NEXT:       "rounding_ties": -1,
// CHECK-NEXT:       "saturated": 0,
// CHECK-NEXT:       "exponent_clamped": -1,
// CHECK-NEXT:       "device_differs": -1
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: ]

func.func @report(%a: tensor<4xf32>) -> (tensor<4xf8E4M3>, tensor<4xf8E5M2>, tensor<1x1088xi8>, tensor<2x1088xi8>, tensor<4xf8E5M2>) {
  %x = arith.constant dense<[240.0, -240.0, 1.0, 128.0]> : tensor<4xf8E4M3>
  %y = arith.constant dense<[240.0, -16.0, 1.0, 128.0]> : tensor<4xf8E4M3>
  %r = birsim.reduce add %x, %y : tensor<4xf8E4M3> loc("r1")
  // 1e6, 1.5, 0, -0 from a dense resource (default config: saturate).
  %blob = arith.constant dense_resource<values> : tensor<4xf32>
  %c = birsim.cast %blob : tensor<4xf32> to tensor<4xf8E5M2>
  // 1 + 2^-7 sits exactly between two BFP8 datums; 2 - 2^-23 rounds beyond
  // the largest.
  %t = arith.constant dense<1.0078125> : tensor<1x32x32xf32>
  %p = birsim.bfp_pack bfp8_b %t : tensor<1x32x32xf32> -> tensor<1x1088xi8> loc("ties")
  %s = arith.constant dense<0x3FFFFFFF> : tensor<2x32x32xf32>
  %q = birsim.bfp_pack bfp8_b %s : tensor<2x32x32xf32> -> tensor<2x1088xi8> loc("saturates")
  // Not a constant: not in the report.
  %n = birsim.cast %a : tensor<4xf32> to tensor<4xf8E5M2>
  return %r, %c, %p, %q, %n : tensor<4xf8E4M3>, tensor<4xf8E5M2>, tensor<1x1088xi8>, tensor<2x1088xi8>, tensor<4xf8E5M2>
}

{-#
  dialect_resources: {
    builtin: {
      values: "0x04000000002474490000C03F0000000000000080"
    }
  }
#-}
