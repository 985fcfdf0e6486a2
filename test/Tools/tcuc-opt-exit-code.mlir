// tcuc-opt fails whenever a pass reports an error, also one that does not
// fail the pass (finalize-memref-to-llvm in tcu-to-cpu reports a memory
// space it cannot convert and leaves the IR half converted): issue 44.
// RUN: not tcuc-opt %s --tcu-to-cpu -o %t.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.ll
// A clean run still succeeds.
// RUN: tcuc-opt %S/../../examples/segmented_sum.mlir --tcu-to-cpu -o /dev/null
// CHECK: error: conversion of memref memory space #gpu.address_space<workgroup> to integer address space failed
func.func @g(%m: memref<4xf32, #gpu.address_space<workgroup>>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
  return %v : f32
}
