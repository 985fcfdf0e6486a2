// The chunk prefetch through the whole GPU backend (the passes of tcu-to-ptx),
// and the same without tcu-prefetch-chunks (OFF).
// RUN: tcuc-opt %s --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s
// RUN: tcuc-opt %s --tcu-outline-kernels --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s --check-prefix=OFF

// A chunk loop around a phase with tcu.block_prefix (the block scan's
// shape, docs/gpu.md "Block items"): the tile load whose address comes from
// the induction variable is issued one iteration early (the first chunk's
// before the loop, chunk i + 1's at the top of iteration i) and carried in
// iter_args; the load whose address depends on the loop's carried value
// cannot be, and stays where it was.
// CHECK-LABEL: gpu.func @chunks_k0
// CHECK: scf.if
// CHECK: %[[FIRST:.*]] = vector.from_elements
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %c0, %{{.*}} = %[[FIRST]]) -> (index, vector<8xf16>)
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c1
// CHECK: arith.muli %[[NEXT]], %c1024
// The next iteration's load selects nothing once it is past the loop.
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[NEXT]], %c3
// CHECK: %[[LIMIT:.*]] = arith.select %[[RUNS]], %{{.*}}, %c0
// CHECK: arith.cmpi slt, %{{.*}}, %[[LIMIT]]
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK: scf.yield %{{.*}}, %{{.*}} : index, vector<8xf16>

// OFF-LABEL: gpu.func @chunks_k0
// OFF: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (index)
// OFF-NOT: vector<8xf16>)
// OFF: gpu.barrier
// OFF: scf.yield %{{.*}} : index
func.func @chunks(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%seg) = (%c0) to (%c4) step (%c1) {
    %totals = memref.alloc() : memref<4xf32>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%carried = %c0) -> (index) {
      %chunk = arith.muli %i, %c1024 : index
      scf.parallel (%w) = (%c0) to (%c4) step (%c1) {
        %run = arith.muli %w, %c256 : index
        %base = arith.addi %chunk, %run : index
        %a = tcu.load_tile <cols> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
        %other = arith.addi %base, %carried : index
        %b = tcu.load_tile <rows> %in[%other] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
        %p = tcu.mma %a, %b, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
        %x = vector.extract %p[0, 0] : f32 from vector<16x16xf32>
        %pre = tcu.block_prefix %x, %totals[%c0], %w of 4 : memref<4xf32>, f32
        %s = vector.broadcast %pre : f32 to vector<16x16xf32>
        tcu.store_tile %s, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
        scf.reduce
      }
      %next = arith.addi %carried, %c1 : index
      scf.yield %next : index
    }
    memref.dealloc %totals : memref<4xf32>
    scf.reduce
  }
  return
}

// A loop that stores into the buffer it loads (an in-place scan, say):
// a load moved above the previous iteration's stores could read what they
// wrote, so nothing is prefetched.
// CHECK-LABEL: gpu.func @writes_its_input_k0
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// CHECK-NOT: iter_args
// CHECK: gpu.barrier
// OFF-LABEL: gpu.func @writes_its_input_k0
func.func @writes_its_input(%buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %n = memref.dim %buf, %c0 : memref<?xf32>
  scf.parallel (%seg) = (%c0) to (%c4) step (%c1) {
    %totals = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      %chunk = arith.muli %i, %c1024 : index
      scf.parallel (%w) = (%c0) to (%c4) step (%c1) {
        %run = arith.muli %w, %c256 : index
        %base = arith.addi %chunk, %run : index
        %a = tcu.load_tile <rows> %buf[%base] stride %c16 line %c16 limit %n : memref<?xf32> -> vector<16x16xf32>
        %x = vector.extract %a[0, 0] : f32 from vector<16x16xf32>
        %pre = tcu.block_prefix %x, %totals[%c0], %w of 4 : memref<4xf32>, f32
        %s = vector.broadcast %pre : f32 to vector<16x16xf32>
        %r = arith.addf %a, %s : vector<16x16xf32>
        tcu.store_tile %r, %buf[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
        scf.reduce
      }
    }
    memref.dealloc %totals : memref<4xf32>
    scf.reduce
  }
  return
}
