// Reverse (suffix) scans: the `reverse` keyword after the scan mode, on the
// buffer and tensor forms, printed back only when set; the mirrored tile
// accesses of the mma form; bufferization keeps `reverse`.
// RUN: tcuc-opt %s | FileCheck %s
// RUN: tcuc-opt %s | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tcuc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func @scan_inclusive_reverse
// CHECK: tcu.segmented_scan <add> inclusive reverse %{{.*}} into %{{.*}} segment_size 256 : memref<?xf16> -> memref<?xf32>
// GENERIC-LABEL: sym_name = "scan_inclusive_reverse"
// GENERIC: "tcu.segmented_scan"(%{{.*}}, %{{.*}}) <{inclusive = true, kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>, reverse, segment_size = 256 : i64}>
func.func @scan_inclusive_reverse(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  return
}

// A forward scan prints no `reverse`, and its attributes have none.
// CHECK-LABEL: func @scan_forward
// CHECK: tcu.segmented_scan <add> exclusive %{{.*}} into
// CHECK-NOT: reverse
// CHECK-SAME: segment_size 48
// GENERIC-LABEL: sym_name = "scan_forward"
// GENERIC-NOT: reverse
// GENERIC: segment_size = 48
func.func @scan_forward(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 48 : memref<?xi8> -> memref<?xi32>
  return
}

// CHECK-LABEL: func @scan_reverse_runtime_size
// CHECK: tcu.segmented_scan <add> exclusive reverse %{{.*}} into %{{.*}} segment_size %{{.*}} {variant = #tcu.variant<stream>} : memref<?xbf16> -> memref<?xbf16>
func.func @scan_reverse_runtime_size(%in: memref<?xbf16>, %out: memref<?xbf16>, %s: index) {
  tcu.segmented_scan <add> exclusive reverse %in into %out segment_size %s {variant = #tcu.variant<stream>} : memref<?xbf16> -> memref<?xbf16>
  return
}

// CHECK-LABEL: func @tensor_scan_reverse
// CHECK: tcu.scan <add> inclusive reverse %{{.*}} into %{{.*}} segment_size 100 : tensor<?xf32> -> tensor<?xf32>
// BUF-LABEL: func @tensor_scan_reverse
// BUF: tcu.segmented_scan <add> inclusive reverse %{{.*}} into %{{.*}} segment_size 100 : memref<?xf32> -> memref<?xf32>
func.func @tensor_scan_reverse(%in: tensor<?xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = tcu.scan <add> inclusive reverse %in into %init segment_size 100 : tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// CHECK-LABEL: func @mirrored_tiles
// CHECK: tcu.load_tile <rows> %{{.*}}[%{{.*}}] stride %{{.*}} line %{{.*}} limit %{{.*}} from %{{.*}} mirror %[[M:.*]] order <quads> : memref<?xf16> -> vector<16x16xf16>
// CHECK: tcu.store_tile %{{.*}}, %{{.*}}[%{{.*}}] stride %{{.*}} line %{{.*}} limit %{{.*}} mirror %[[M]] : vector<16x16xf32> -> memref<?xf32>
// GENERIC-LABEL: sym_name = "mirrored_tiles"
// GENERIC: "tcu.load_tile"{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>
// GENERIC: "tcu.store_tile"{{.*}}operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0, 1>
func.func @mirrored_tiles(%in: memref<?xf16>, %out: memref<?xf32>, %b: index, %n: index, %m: index, %acc: vector<16x16xf32>) -> vector<16x16xf16> {
  %c16 = arith.constant 16 : index
  %t = tcu.load_tile <rows> %in[%b] stride %c16 line %c16 limit %n from %b mirror %m order <quads> : memref<?xf16> -> vector<16x16xf16>
  tcu.store_tile %acc, %out[%b] stride %c16 line %c16 limit %n mirror %m : vector<16x16xf32> -> memref<?xf32>
  return %t : vector<16x16xf16>
}
