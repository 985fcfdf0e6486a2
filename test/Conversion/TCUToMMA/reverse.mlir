// Reverse (suffix) scans in the mma form: the forward algorithm over the
// mirrored view of n' = n rounded up to a multiple of the segment size
// (docs/algorithms.md#reverse-scans). Every tile access to the input and
// the output carries `mirror %m` (m = n' - 1, the limit n'); accesses to
// scratch buffers do not; offsets are read mirrored.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s

// n' = n + pad [n > 256], pad = (256 - n mod 256) mod 256 (n rounded up
// to a multiple of 256, unless one segment holds the whole input),
// m = n' - 1.
// CHECK-LABEL: func @seg256
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: %[[R:.*]] = arith.remui %[[N]], %c256
// CHECK: %[[REST:.*]] = arith.subi %c256, %[[R]]
// CHECK: %[[PAD:.*]] = arith.remui %[[REST]], %c256
// CHECK: %[[D:.*]] = arith.subi %[[N]], %c256
// CHECK: %[[MIN:.*]] = arith.minsi %[[D]], %c1
// CHECK: %[[SEVERAL:.*]] = arith.maxsi %[[MIN]], %c0
// CHECK: %[[ADD:.*]] = arith.muli %[[PAD]], %[[SEVERAL]]
// CHECK: %[[NP:.*]] = arith.addi %[[N]], %[[ADD]]
// CHECK: %[[M:.*]] = arith.subi %[[NP]], %c1
// CHECK: scf.parallel
// CHECK: %[[LIMIT:.*]] = arith.minsi %{{.*}}, %[[NP]]
// CHECK: tcu.load_tile <rows> %arg0[%{{.*}}] stride %c16 line %c16 limit %[[LIMIT]] mirror %[[M]]
// CHECK: tcu.matrix <U>
// CHECK: tcu.store_tile %{{.*}}, %arg1[%{{.*}}] stride %c16 line %c16 limit %[[LIMIT]] mirror %[[M]]
func.func @seg256(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  return
}

// The forward scan has no mirror.
// CHECK-LABEL: func @seg256_forward
// CHECK-NOT: mirror
// CHECK: return
func.func @seg256_forward(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  return
}

// Exclusive reverse: Ustrict on the mirrored tiles.
// CHECK-LABEL: func @seg16_exclusive
// CHECK: tcu.load_tile <rows> %arg0{{.*}} mirror
// CHECK: tcu.matrix <Ustrict>
// CHECK: tcu.store_tile {{.*}} mirror
func.func @seg16_exclusive(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive reverse %in into %out segment_size 10 : memref<?xi8> -> memref<?xi32>
  return
}

// A runtime size: n' from it at run time.
// CHECK-LABEL: func @runtime_size
// CHECK-SAME: %[[S:[a-z0-9]+]]: index
// CHECK: %[[R:.*]] = arith.remui %{{.*}}, %[[S]]
// CHECK: arith.subi %[[S]], %[[R]]
// CHECK: %[[NP:.*]] = arith.addi %dim, %{{.*}}
// CHECK: %[[M:.*]] = arith.subi %[[NP]], %c1
// CHECK: tcu.load_tile {{.*}} mirror %[[M]]
// CHECK: tcu.store_tile {{.*}} mirror %[[M]]
func.func @runtime_size(%in: memref<?xf16>, %out: memref<?xf16>, %s: index) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size %s {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf16>
  return
}

// The block scan's per-warp totals go through scratch: those accesses are
// not mirrored, the input's and output's are.
// CHECK-LABEL: func @grid_scratch
// CHECK-DAG: tcu.load_tile <rows> %arg0{{.*}} mirror
// CHECK-DAG: tcu.store_tile {{.*}}, %arg1{{.*}} mirror
// CHECK-NOT: tcu.store_tile {{.*}}, %alloc{{.*}} mirror
func.func @grid_scratch(%in: memref<?xf32>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100000 {variant = #tcu.variant<matmulscan>} : memref<?xf32> -> memref<?xf32>
  return
}

// Prefetches ask for the physical range the logical one stands for.
// CHECK-LABEL: func @stream_prefetch
// CHECK: tcu.prefetch %arg0
// CHECK: tcu.load_tile {{.*}} mirror
func.func @stream_prefetch(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf32>
  return
}

// Offsets: n is the last offset (read as stored), the views of the input
// and output are mirrored about it, and the offsets are read mirrored:
// n - off[k - i], in the walk and in tcu.offset_heads.
// CHECK-LABEL: func @offsets_balanced
// CHECK: tcu.offset_heads %arg2[{{.*}}] base %{{.*}} mirror %{{.*}} : memref<?xi64>
// CHECK: tcu.load_tile {{.*}} mirror
func.func @offsets_balanced(%in: memref<?xf16>, %out: memref<?xf32>, %off: memref<?xi64>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out offsets %off : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}

// CHECK-LABEL: func @offsets_seg256n
// CHECK: tcu.load_tile {{.*}} mirror
// CHECK: tcu.store_tile {{.*}} mirror
func.func @offsets_seg256n(%in: memref<?xbf16>, %out: memref<?xf32>, %off: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive reverse %in into %out offsets %off {variant = #tcu.variant<seg256n>} : memref<?xbf16>, memref<?xi32> -> memref<?xf32>
  return
}
