// RUN: tcuc-opt %s --tcu-outline-kernels --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s

// Tiles in the lanes element order (#tcu.order<lanes>): lane l holds the
// tile's elements 8l .. 8l + 7, so a whole f16 tile loads as one 16-byte
// vector a lane and an f32 tile stores as one 32-byte vector; a partial
// tile inside the buffer loads as the same vector with zeros selected,
// one past the buffer's end element by element, and a partial store
// writes each aligned 16-byte run that is wholly stored as one vector.
// The recurrence composes a lane's eight elements in turn and scans the
// 32 lanes' compositions: five steps of three shuffles (the product of
// decays an f64, two 32-bit halves) and three for the exclusive shift,
// 18 in all (the fixed order takes 67).
// CHECK-LABEL: gpu.func @lanes_k0
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK: arith.select
// CHECK-COUNT-8: memref.load
// CHECK-NOT: vector.load
// CHECK-COUNT-18: gpu.shuffle
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 32 : i64} : memref<?xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.store
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-COUNT-4: memref.store
func.func @lanes(%in: memref<?xf16>, %out: memref<?xf32>, %h0: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %decay = arith.constant dense<0.5> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c256 : index
    %x = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n order <lanes> : memref<?xf16> -> vector<16x16xf16>
    %h = tcu.linear_recurrence %decay, %x, %h0 order <lanes> : vector<16x16xf16>
    tcu.store_tile %h, %out[%base] stride %c16 line %c16 limit %n order <lanes> : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  }
  return
}

// One decay for the tile (a scalar) with heads: the decay over a run of
// lanes is a power of it, or 0 where the ballot of the lanes holding a
// head says one lies in the run, so the lanes scan h alone: five shuffles
// and one for the exclusive shift.
// A warp whose tile holds NaN, Inf or huge values (one vote) runs the
// recurrence element by element instead: its elements and decays to
// workgroup memory, lane 0's loop of 256 steps, the results back
// (docs/algorithms.md#decayed-nan-inf).
// CHECK: memref.global "private" @tcuc_exact_recurrence : memref<2048xf32, 3>
// CHECK-LABEL: gpu.func @uniform_k0
// CHECK: nvvm.vote.sync any
// CHECK: %[[BAD:.*]] = llvm.intr.expect %{{.*}}, %false : i1
// CHECK: scf.if %[[BAD]]
// CHECK: memref.get_global @tcuc_exact_recurrence
// CHECK: nvvm.bar.warp.sync
// CHECK: %[[TRIPS:.*]] = llvm.inline_asm has_side_effects "mov.u32 $0, 256;"
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK: nvvm.bar.warp.sync
// CHECK: } else {
// CHECK: nvvm.vote.sync ballot
// CHECK-COUNT-6: gpu.shuffle up %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: gpu.shuffle
func.func @uniform(%in: memref<?xf16>, %out: memref<?xf32>, %h0: f32, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf16>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c256 : index
    %x = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n order <lanes> : memref<?xf16> -> vector<16x16xf16>
    %heads = arith.cmpf oeq, %x, %zero : vector<16x16xf16>
    %h = tcu.linear_recurrence %a, %x, %h0 heads %heads order <lanes> : vector<16x16xf16>, f32
    tcu.store_tile %h, %out[%base] stride %c16 line %c16 limit %n order <lanes> : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  }
  return
}

