// RUN: tcuc-opt %s --tcu-outline-kernels | FileCheck %s
// RUN: tcuc-opt %s --tcu-outline-kernels="block-size=256" | FileCheck %s --check-prefix=BLOCK256

// tcu-outline-kernels alone: the work items become kernels whose bodies stay
// in the mma form; the launch plan goes on the gpu.module.

// A warp item: a warp takes items in a grid-stride loop, its scratch is its
// slice of a workgroup buffer, every store is followed by a warp barrier.
// The loop's tile-runs and occupancy facts go to the kernel.
// CHECK-LABEL: gpu.module @warp_items_kernels
// CHECK-SAME: tcuc.block = 128 : i64
// CHECK-SAME: tcuc.items = ["n 256 divu"]
// CHECK-SAME: tcuc.kernels = [@warp_items_k0]
// CHECK-SAME: tcuc.scratch = []
// CHECK: gpu.func @warp_items_k0(%[[IN:.*]]: memref<?xf16>, %[[OUT:.*]]: memref<?xf32>) workgroup(%[[WG:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-SAME: attributes {nvvm.minctasm = 8 : i32, tcu.tile_runs}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: arith.muli %[[WARP]], %c256
// CHECK: memref.subview %[[WG]]
// CHECK: scf.for
// CHECK: tcu.load_tile <rows> %[[IN]]
// CHECK: tcu.mma
// CHECK: tcu.store_tile
// CHECK-NEXT: %[[MASK:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[MASK]]
// CHECK-NOT: tcu.chunk_loop
// CHECK: gpu.return
// BLOCK256-LABEL: gpu.module @warp_items_kernels
// BLOCK256-SAME: tcuc.block = 256 : i64
func.func @warp_items(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %items = arith.divui %n, %c256 : index
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%items) step (%c1) {
    %scratch = memref.alloc() : memref<256xf32>
    %base = arith.muli %w, %c256 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
    %p = tcu.matrix <P> : vector<16x16xf16>
    %r = tcu.mma %p, %a, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %r, %scratch[%c0] stride %c16 line %c16 limit %c256 : vector<16x16xf32> -> memref<256xf32>
    memref.dealloc %scratch : memref<256xf32>
    scf.reduce
  } {tcu.min_blocks_per_sm = 8 : i64, tcu.tile_runs}
  return
}

// A block item: its phases set the block (4 warps) and become the warps'
// share of the loop and a block barrier. The phase of one iteration per
// warp is its body with w = the warp's index, and the loop around it is a
// chunk loop for tcu-prefetch-chunks; a phase of other iterations loops.
// CHECK-LABEL: gpu.module @block_items_kernels
// CHECK-SAME: tcuc.block = 128 : i64
// CHECK-SAME: tcuc.items = ["n 1024 divu 4 mul"]
// CHECK: gpu.func @block_items_k0
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK: arith.muli %[[WARP]], %c256
// CHECK: tcu.load_tile
// CHECK: tcu.block_prefix
// CHECK: gpu.barrier
// CHECK-NEXT: } {tcu.chunk_loop}
// CHECK: scf.for %{{.*}} = %[[WARP]] to %{{.*}} step %{{.*}} {
// CHECK: tcu.store_tile
// CHECK: gpu.barrier
// CHECK-NOT: tcu.chunk_loop
// CHECK: gpu.return
func.func @block_items(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %items = arith.divui %n, %c1024 : index
  %tiles = arith.divui %n, %c256 : index
  scf.parallel (%seg) = (%c0) to (%items) step (%c1) {
    %totals = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      scf.parallel (%w) = (%c0) to (%c4) step (%c1) {
        %base = arith.muli %w, %c256 : index
        %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf32> -> vector<16x16xf32>
        %x = vector.extract %a[0, 0] : f32 from vector<16x16xf32>
        %pre = tcu.block_prefix %x, %totals[%c0], %w of 4 : memref<4xf32>, f32
        scf.reduce
      }
    }
    scf.parallel (%t) = (%c0) to (%tiles) step (%c1) {
      %zero = arith.constant dense<0.0> : vector<16x16xf32>
      %base = arith.muli %t, %c256 : index
      tcu.store_tile %zero, %in[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
      scf.reduce
    }
    memref.dealloc %totals : memref<4xf32>
    scf.reduce
  }
  return
}

// A runtime segment size: the index third argument becomes the kernels'
// third parameter, and `s` in the plan's size expressions; the unsigned
// divisions by it (not pure ops) are recomputed in the kernel.
// CHECK-LABEL: gpu.module @runtime_segment_kernels
// CHECK-SAME: tcuc.items = ["n s divu"]
// CHECK-SAME: tcuc.scratch = {{\[}}[f32, "n s divu"]]
// CHECK: gpu.func @runtime_segment_k0(%{{.*}}: memref<?xf16>, %{{.*}}: memref<?xf32>, %[[S:.*]]: index, %{{.*}}: memref<?xf32>) kernel
// CHECK: arith.divui %{{.*}}, %[[S]]
func.func @runtime_segment(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %segs = arith.divui %n, %s : index
  %partials = memref.alloc(%segs) : memref<?xf32>
  scf.parallel (%w) = (%c0) to (%segs) step (%c1) {
    %base = arith.muli %w, %s : index
    %x = memref.load %in[%base] : memref<?xf16>
    %y = arith.extf %x : f16 to f32
    memref.store %y, %partials[%w] : memref<?xf32>
    scf.reduce
  }
  memref.dealloc %partials : memref<?xf32>
  return
}
