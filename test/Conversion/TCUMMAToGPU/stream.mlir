// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu | FileCheck %s

// The streaming scan on lane fragments (docs/algorithms.md, "The streaming
// scan"). tcu.positions: lane 4g + t holds rows g (slots 0, 1, 4, 5) and
// g + 8, columns 2t + {0, 1, 8, 9}; slots of one row share one value, so
// what is computed from the row is computed once a row. The boundary-masked
// L_seg (a mask matrix) takes the exact path on a tile with NaN or Inf,
// with its selection read from L_seg's own operand lanes (an f16 compare,
// then two butterfly shuffles that OR a row's bits), and the three products
// share one finite check of the loaded tile.

// CHECK-LABEL: gpu.module @stream_kernels
// CHECK: memref.global "private" @tcuc_exact_tiles_f16
// CHECK: gpu.func
// CHECK: %[[START:.*]] = arith.muli %{{.*}}, %c4000 : index
// The load of a tile below the item's start goes per element.
// CHECK: arith.cmpi sge, %{{.*}}, %[[START]] : index
// CHECK: vector.from_elements %[[G:[0-9]+]], %[[G]], %[[G8:[0-9]+]], %[[G8]], %[[G]], %[[G]], %[[G8]], %[[G8]] : vector<8xi32>
// CHECK: vector.from_elements %[[T2:[0-9]+]], %[[T21:[0-9]+]], %[[T2]], %[[T21]], %[[T28:[0-9]+]], %[[T29:[0-9]+]], %[[T28]], %[[T29]] : vector<8xi32>
// One vote for the tile, before the first product.
// CHECK: nvvm.vote.sync any
// CHECK-NOT: nvvm.vote.sync
// CHECK: arith.cmpf une
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK: nvvm.mma.sync
// Stores skip the elements before the item: the whole-tile test, then
// each element's.
// CHECK: arith.cmpi sge, %{{.*}}, %[[START]] : index
// CHECK: scf.if
// CHECK: arith.cmpi sge, %{{.*}}, %[[START]] : index
func.func @stream(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 {variant = #tcu.variant<stream>, tiles_per_warp = 1 : i64} : memref<?xf16> -> memref<?xf32>
  return
}
