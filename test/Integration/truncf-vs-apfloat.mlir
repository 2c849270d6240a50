// docs/Conversions.md: arith.truncf mapped with fp8-config=none is the
// birsim.cast below; it equals upstream's own arith.truncf, lowered through
// --convert-arith-to-apfloat (one APFloat call per element), on every f32
// value class: every sign, exponent and bf16 rounding point (the low half
// 0x0000, 0x7FFF, 0x8000, 0x8001, 0xFFFF under every high half), zeros,
// subnormals, Inf and NaN. Both giving NaN with different codes is counted
// apart (birsim gives the format's one NaN, docs/Semantics.md section 4).
// RUN: birsim-opt %s --convert-arith-to-apfloat --birsim-to-llvm | \
// RUN:   mlir-runner -e main --entry-point-result=void \
// RUN:     --shared-libs=%birsim_rt,%mlir_runner_utils,%mlir_c_runner_utils,%mlir_apfloat_wrappers | \
// RUN:   FileCheck %s

// CHECK: f8E5M2 mismatches: 0
// CHECK: f8E4M3 mismatches: 0
// CHECK: f8E3M4 mismatches: 0
// CHECK: f8E4M3FN mismatches: 0
// CHECK: bf16 mismatches: 0
// CHECK: f16 mismatches: 0

func.func @values() -> memref<327680xf32> {
  %m = memref.alloc() : memref<327680xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  %lows = arith.constant dense<[0, 32767, 32768, 32769, 65535]> : tensor<5xi32>
  %c16 = arith.constant 16 : i32
  scf.for %i = %c0 to %c65536 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %high = arith.shli %ii, %c16 : i32
    %c5 = arith.constant 5 : index
    scf.for %k = %c0 to %c5 step %c1 {
      %low = tensor.extract %lows[%k] : tensor<5xi32>
      %bits = arith.ori %high, %low : i32
      %v = arith.bitcast %bits : i32 to f32
      %at = arith.muli %i, %c5 : index
      %j = arith.addi %at, %k : index
      memref.store %v, %m[%j] : memref<327680xf32>
    }
  }
  return %m : memref<327680xf32>
}


func.func @compare_f8E5M2(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to f8E5M2
    %b = birsim.cast %x fp8_config<none> : f32 to f8E5M2
    %ai = arith.bitcast %a : f8E5M2 to i8
    %bi = arith.bitcast %b : f8E5M2 to i8
    %anan = arith.cmpf une, %a, %a : f8E5M2
    %bnan = arith.cmpf une, %b, %b : f8E5M2
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i8
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "f8E5M2 mismatches: "
  vector.print %r#0 : i64
  vector.print str "f8E5M2 NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @compare_f8E4M3(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to f8E4M3
    %b = birsim.cast %x fp8_config<none> : f32 to f8E4M3
    %ai = arith.bitcast %a : f8E4M3 to i8
    %bi = arith.bitcast %b : f8E4M3 to i8
    %anan = arith.cmpf une, %a, %a : f8E4M3
    %bnan = arith.cmpf une, %b, %b : f8E4M3
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i8
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "f8E4M3 mismatches: "
  vector.print %r#0 : i64
  vector.print str "f8E4M3 NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @compare_f8E3M4(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to f8E3M4
    %b = birsim.cast %x fp8_config<none> : f32 to f8E3M4
    %ai = arith.bitcast %a : f8E3M4 to i8
    %bi = arith.bitcast %b : f8E3M4 to i8
    %anan = arith.cmpf une, %a, %a : f8E3M4
    %bnan = arith.cmpf une, %b, %b : f8E3M4
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i8
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "f8E3M4 mismatches: "
  vector.print %r#0 : i64
  vector.print str "f8E3M4 NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @compare_f8E4M3FN(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to f8E4M3FN
    %b = birsim.cast %x fp8_config<none> : f32 to f8E4M3FN
    %ai = arith.bitcast %a : f8E4M3FN to i8
    %bi = arith.bitcast %b : f8E4M3FN to i8
    %anan = arith.cmpf une, %a, %a : f8E4M3FN
    %bnan = arith.cmpf une, %b, %b : f8E4M3FN
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i8
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "f8E4M3FN mismatches: "
  vector.print %r#0 : i64
  vector.print str "f8E4M3FN NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @compare_bf16(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to bf16
    %b = birsim.cast %x fp8_config<none> : f32 to bf16
    %ai = arith.bitcast %a : bf16 to i16
    %bi = arith.bitcast %b : bf16 to i16
    %anan = arith.cmpf une, %a, %a : bf16
    %bnan = arith.cmpf une, %b, %b : bf16
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i16
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "bf16 mismatches: "
  vector.print %r#0 : i64
  vector.print str "bf16 NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @compare_f16(%m: memref<327680xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 327680 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%bad = %zero, %nans = %zero) -> (i64, i64) {
    %x = memref.load %m[%i] : memref<327680xf32>
    %a = arith.truncf %x : f32 to f16
    %b = birsim.cast %x fp8_config<none> : f32 to f16
    %ai = arith.bitcast %a : f16 to i16
    %bi = arith.bitcast %b : f16 to i16
    %anan = arith.cmpf une, %a, %a : f16
    %bnan = arith.cmpf une, %b, %b : f16
    %bothNaN = arith.andi %anan, %bnan : i1
    %ne = arith.cmpi ne, %ai, %bi : i16
    %real = arith.xori %bothNaN, %ne : i1
    %mismatch = arith.andi %real, %ne : i1
    %code = arith.andi %bothNaN, %ne : i1
    %mi = arith.extui %mismatch : i1 to i64
    %ci = arith.extui %code : i1 to i64
    %bad2 = arith.addi %bad, %mi : i64
    %nans2 = arith.addi %nans, %ci : i64
    scf.yield %bad2, %nans2 : i64, i64
  }
  vector.print str "f16 mismatches: "
  vector.print %r#0 : i64
  vector.print str "f16 NaN codes differ: "
  vector.print %r#1 : i64
  return
}

func.func @main() {
  %m = call @values() : () -> memref<327680xf32>
  call @compare_f8E5M2(%m) : (memref<327680xf32>) -> ()
  call @compare_f8E4M3(%m) : (memref<327680xf32>) -> ()
  call @compare_f8E3M4(%m) : (memref<327680xf32>) -> ()
  call @compare_f8E4M3FN(%m) : (memref<327680xf32>) -> ()
  call @compare_bf16(%m) : (memref<327680xf32>) -> ()
  call @compare_f16(%m) : (memref<327680xf32>) -> ()
  return
}
