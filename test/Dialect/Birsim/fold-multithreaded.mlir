// A module of 64 functions folds to the same bytes with MLIR's
// multi-threaded pass manager as on one thread (the folders share no state).
// RUN: %python %S/Inputs/gen-many-functions.py 7 > %t.mlir
// RUN: birsim-opt %t.mlir -canonicalize -o %t.threads.mlir
// RUN: birsim-opt %t.mlir -canonicalize --mlir-disable-threading -o %t.one.mlir
// RUN: diff %t.threads.mlir %t.one.mlir
// RUN: FileCheck %s < %t.threads.mlir
// Everything folded.
// CHECK-NOT: birsim.
// CHECK-COUNT-64: return
