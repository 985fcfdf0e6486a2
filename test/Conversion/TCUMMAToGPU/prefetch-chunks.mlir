// RUN: tcuc-opt %s --split-input-file --tcu-prefetch-chunks | FileCheck %s

// tcu-prefetch-chunks alone, on a chunk loop tcu-outline-kernels marked: the
// load whose address comes from the induction variable is issued one
// iteration early (the first chunk's before the loop, chunk i + 1's at the
// top of iteration i, with limit 0 past the last) and carried in
// iter_args; the load whose address depends on the loop's carried value
// stays. The warp barrier after the store writes no buffer. The mark goes.
// CHECK-LABEL: gpu.func @chunks
// CHECK: %[[BASE0:.*]] = arith.addi
// CHECK: %[[RUNS0:.*]] = arith.cmpi slt, %c0, %c3
// CHECK: %[[LIMIT0:.*]] = arith.select %[[RUNS0]], %[[N:.*]], %c0
// CHECK: %[[FIRST:.*]] = tcu.load_tile <cols> %{{.*}}[%[[BASE0]]] stride %c16 line %c16 limit %[[LIMIT0]]
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 iter_args(%[[CARRIED:.*]] = %c0, %[[TILE:.*]] = %[[FIRST]]) -> (index, vector<16x16xf16>) {
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c1
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[NEXT]], %c3
// CHECK: %[[LIMIT:.*]] = arith.select %[[RUNS]], %[[N]], %c0
// CHECK: %[[AHEAD:.*]] = tcu.load_tile <cols> %{{.*}} limit %[[LIMIT]]
// CHECK: %[[OTHER:.*]] = arith.addi %{{.*}}, %[[CARRIED]]
// CHECK: %[[B:.*]] = tcu.load_tile <rows> %{{.*}}[%[[OTHER]]]
// CHECK: tcu.mma %[[TILE]], %[[B]]
// CHECK: gpu.barrier
// CHECK: scf.yield %{{.*}}, %[[AHEAD]] : index, vector<16x16xf16>
// CHECK-NEXT: }
// CHECK-NOT: tcu.chunk_loop
gpu.module @chunks_kernels {
  gpu.func @chunks(%in: memref<?xf16>, %out: memref<?xf32>) workgroup(%totals : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
    %m1 = arith.constant -1 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %zero = arith.constant dense<0.0> : vector<16x16xf32>
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %n = memref.dim %in, %c0 : memref<?xf16>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%carried = %c0) -> (index) {
      %chunk = arith.muli %i, %c1024 : index
      %run = arith.muli %warp, %c256 : index
      %base = arith.addi %chunk, %run : index
      %a = tcu.load_tile <cols> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
      %other = arith.addi %base, %carried : index
      %b = tcu.load_tile <rows> %in[%other] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
      %p = tcu.mma %a, %b, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
      %x = vector.extract %p[0, 0] : f32 from vector<16x16xf32>
      %pre = tcu.block_prefix %x, %totals[%c0], %warp of 4 : memref<4xf32, #gpu.address_space<workgroup>>, f32
      %s = vector.broadcast %pre : f32 to vector<16x16xf32>
      tcu.store_tile %s, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
      nvvm.bar.warp.sync %m1 : i32
      gpu.barrier
      %next = arith.addi %carried, %c1 : index
      scf.yield %next : index
    } {tcu.chunk_loop}
    gpu.return
  }
}

// -----

// An unmarked loop (a warp item's, say) is left as it is.
// CHECK-LABEL: gpu.func @unmarked
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tcu.load_tile
gpu.module @unmarked_kernels {
  gpu.func @unmarked(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %in, %c0 : memref<?xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %base = arith.muli %i, %c256 : index
      %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf32> -> vector<16x16xf32>
      tcu.store_tile %a, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
      gpu.barrier
    }
    gpu.return
  }
}
