// RUN: tcuc-opt %s --tcu-outline-kernels --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu --canonicalize | FileCheck %s

// A tile of 256 consecutive elements with a lower bound (`from`: an aligned
// segment walk's, the streaming scan's) has three paths: whole (aligned, at
// or above `from`, below the limit) as 16-byte vectors; else, where the
// tile is aligned and inside the buffer (its memref.dim), the same vector
// loads and a select of zero for each slot below `from` or at or past the
// limit (it reads its neighbours' input, never past the buffer); else slot
// by slot.
// The buffer test is made only where the tile is not whole.
// CHECK-LABEL: gpu.func @from_tile_k0
// CHECK: scf.if %{{.*}} -> (f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK-COUNT-4: vector.load %arg0
// CHECK: } else {
// CHECK-NEXT: memref.dim %arg0, %c0
// CHECK: scf.if %{{.*}} -> (f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK-COUNT-4: vector.load %arg0
// CHECK-COUNT-8: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// CHECK: } else {
// CHECK-COUNT-8: memref.load %arg0
func.func @from_tile(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %c768 = arith.constant 768 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c768 : index
    %from = arith.addi %base, %c100 : index
    %limit = arith.addi %from, %c768 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %limit from %from : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %p, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  }
  return
}

// Without `from` (the tiles at a segment's own base) a tile that is not
// whole goes slot by slot: one vector path only.
// CHECK-LABEL: gpu.func @no_from_k0
// CHECK-COUNT-4: vector.load %arg0
// CHECK-NOT: vector.load %arg0
// CHECK: memref.load %arg0
// CHECK-NOT: vector.load %arg0
// CHECK: gpu.return
func.func @no_from(%in: memref<?xf16>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %n = memref.dim %in, %c0 : memref<?xf16>
  %zero = arith.constant dense<0.0> : vector<16x16xf32>
  scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
    %base = arith.muli %w, %c100 : index
    %a = tcu.load_tile <rows> %in[%base] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
    %ones = tcu.matrix <Ones> : vector<16x16xf16>
    %p = tcu.mma %a, %ones, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    tcu.store_tile %p, %out[%base] stride %c16 line %c16 limit %n : vector<16x16xf32> -> memref<?xf32>
    scf.reduce
  }
  return
}
