// The discardable attributes the tcu dialect verifies, where they belong,
// and tcu.mma's rhs_transposed: they parse, verify and print back.
// RUN: tcuc-opt %s | FileCheck %s
// RUN: tcuc-opt %s | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | tcuc-opt | FileCheck %s

// CHECK-LABEL: func @work_items
// CHECK: } {tcu.min_blocks_per_sm = 8 : i64, tcu.tile_runs}
// CHECK: } {tcu.chunk_loop}
func.func @work_items(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.min_blocks_per_sm = 8 : i64, tcu.tile_runs}
  scf.for %j = %c0 to %n step %c1 {
  } {tcu.chunk_loop}
  return
}

// CHECK-LABEL: func @register_cap
// CHECK: } {tcu.max_registers = 56 : i64}
func.func @register_cap(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.max_registers = 56 : i64}
  return
}

// CHECK-LABEL: gpu.func @kernel
// CHECK-SAME: kernel attributes {tcu.tile_runs}
gpu.module @kernels {
  gpu.func @kernel() kernel attributes {tcu.tile_runs} {
    gpu.return
  }
}

// CHECK-LABEL: func @mma_rhs_transposed
// CHECK: tcu.mma %{{.*}}, %{{.*}}, %{{.*}} rhs_transposed : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
// CHECK: tcu.mma %{{.*}}, %{{.*}}, %{{.*}} : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
func.func @mma_rhs_transposed(%a: vector<16x16xf16>, %bt: vector<16x16xf16>, %c: vector<16x16xf32>) -> vector<16x16xf32> {
  %r = tcu.mma %a, %bt, %c rhs_transposed : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  %s = tcu.mma %a, %bt, %r : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
  return %s : vector<16x16xf32>
}
