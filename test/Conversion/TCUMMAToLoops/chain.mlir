// RUN: tcuc-opt %s --convert-tcu-mma-to-loops --canonicalize | FileCheck %s

// The block and chain ops in program order: the CPU runs work items in
// ticket order and the warps of an item in warp order, so every value an
// op waits for on the GPU is already stored.

// A ticket is an atomic add of 1 on the counter.
// CHECK-LABEL: func.func @ticket
// CHECK: %[[OLD:.*]] = memref.atomic_rmw addi %c1_i64, %arg0[%arg1]
// CHECK: arith.index_cast %[[OLD]] : i64 to index
func.func @ticket(%s: memref<?xi64>, %o: index) -> index {
  %q = tcu.ticket %s[%o] : memref<?xi64>
  return %q : index
}

// tcu.block_prefix: store the warp's value, sum the earlier warps' in warp
// order (only they are stored yet).
// CHECK-LABEL: func.func @block_prefix
// CHECK: %[[AT:.*]] = arith.addi %arg2, %arg3
// CHECK: memref.store %arg0, %arg1[%[[AT]]]
// CHECK: scf.for %{{.*}} = %c0 to %arg3 step %c1 iter_args
// CHECK: arith.addf
func.func @block_prefix(%v: f32, %m: memref<16xf32>, %o: index, %w: index) -> f32 {
  %p = tcu.block_prefix %v, %m[%o], %w of 8 : memref<16xf32>, f32
  return %p : f32
}

// A prefetch is only a hint: nothing on the CPU.
// CHECK-LABEL: func.func @prefetch
// CHECK-NEXT: return
func.func @prefetch(%in: memref<?xi8>, %o: index, %n: index) {
  tcu.prefetch %in[%o], %n cache <evict_last> : memref<?xi8>
  return
}

// (Regression: the pass must load cf for its asserts; an op outside any
// loop crashed tcuc-opt when nothing else had loaded it.)
// tcu.block_lookback: warp 0 reads the item before's word (its inclusive
// prefix, flag 1 in the high half: anything else asserts rather than
// spins) unless the item is its chain's first; the last warp publishes
// prefix + the warps' values as 1 << 32 | bits.
// CHECK-LABEL: func.func @lookback
// CHECK-DAG: %[[FLAG:.*]] = arith.constant 4294967296 : i64
// CHECK: %[[W0:.*]] = arith.cmpi eq, %arg4, %c0
// CHECK: scf.if %[[W0]]
// CHECK: arith.cmpi eq, %arg5, %arg6
// CHECK: arith.subi %arg5, %c1
// CHECK: %[[WORD:.*]] = memref.load %arg2
// CHECK: arith.shrui %[[WORD]], %c32_i64
// CHECK: cf.assert {{.*}}"tcu.block_lookback: the item before has no inclusive prefix
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %arg4, %c3
// CHECK: scf.if %[[LAST]]
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: %[[NEW:.*]] = arith.ori %[[WIDE]], %[[FLAG]]
// CHECK: memref.store %[[NEW]], %arg2[%arg5]
func.func @lookback(%v: f32, %m: memref<5xf32>, %s: memref<?xi64>, %o: index, %w: index, %q: index, %f: index) -> (f32, f32) {
  %p, %c = tcu.block_lookback %v, %m[%o], %w of 4, %s[%q] first %f : memref<5xf32>, memref<?xi64>, f32
  return %p, %c : f32, f32
}

// The lagged forms lower the same way (the scanned item's prefix from the
// word before it, the reduced item's word published by the last warp).
// CHECK-LABEL: func.func @lagged
// CHECK-NOT: tcu.{{[a-z_]+}} %
// CHECK: cf.assert
// CHECK-NOT: tcu.{{[a-z_]+}} %
// CHECK: return
func.func @lagged(%v: f32, %r: f32, %m: memref<10xf32>, %s: memref<?xi64>, %o: index, %w: index, %t: index, %tf: index, %p: i1, %u: index, %uf: index, %k: i1, %q: index, %qf: index, %l: i1) -> (f32, f32) {
  %g = tcu.lagged_prefix %s[%q] first %qf if %l : memref<?xi64>
  %b, %c = tcu.block_lagged_lookback %v, %r, %m[%o], %w of 4, %s publish[%t] first %tf if %p, complete[%u] first %uf if %k, prefix[%q] first %qf if %l given %g : memref<10xf32>, memref<?xi64>, f32
  return %b, %c : f32, f32
}
