// Decayed scans: `decay a` after the segments, on the buffer and tensor
// forms, printed in the fewest digits that read back as the same f32 (with
// a point: "1.0", "0.0"), absent when not set; bufferization keeps it; the
// mma form's tcu.decay_matrix round-trips.
// RUN: tcuc-opt %s | FileCheck %s
// RUN: tcuc-opt %s | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | tcuc-opt | FileCheck %s
// RUN: tcuc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tcuc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func @decay_09
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 100 decay 0.9 : memref<?xf16> -> memref<?xf32>
// GENERIC-LABEL: sym_name = "decay_09"
// GENERIC: "tcu.segmented_scan"(%{{.*}}, %{{.*}}) <{decay = 0.899999976 : f32, inclusive = true
func.func @decay_09(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// Integral values get a point; negative ones and reverse scans print too;
// the attribute dictionary follows the decay.
// CHECK-LABEL: func @decay_forms
// CHECK: tcu.segmented_scan <add> exclusive reverse %{{.*}} into %{{.*}} segment_size 16 decay 0.0 {variant = #tcu.variant<seg16>} : memref<?xbf16> -> memref<?xbf16>
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 256 decay -0.5 : memref<?xf32> -> memref<?xf32>
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 256 decay 1.0 : memref<?xf32> -> memref<?xf32>
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 7 decay 0.999 : memref<?xf16> -> memref<?xf32>
// CHECK: tcu.segmented_scan <add> inclusive %{{.*}} into %{{.*}} segment_size 7 decay 1.0e-05 : memref<?xf16> -> memref<?xf32>
func.func @decay_forms(%b: memref<?xbf16>, %f: memref<?xf32>, %h: memref<?xf16>) {
  tcu.segmented_scan <add> exclusive reverse %b into %b segment_size 16 decay 0.0 {variant = #tcu.variant<seg16>} : memref<?xbf16> -> memref<?xbf16>
  tcu.segmented_scan <add> inclusive %f into %f segment_size 256 decay -0.5 : memref<?xf32> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %f into %f segment_size 256 decay 1.0 : memref<?xf32> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %h into %f segment_size 7 decay 0.999 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %h into %f segment_size 7 decay 0.00001 : memref<?xf16> -> memref<?xf32>
  return
}

// A plain scan has no decay.
// CHECK-LABEL: func @plain
// CHECK-NOT: decay
// GENERIC-LABEL: sym_name = "plain"
// GENERIC-NOT: decay
// GENERIC: sym_name
func.func @plain(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func @tensor_decay
// CHECK: tcu.scan <add> exclusive %{{.*}} into %{{.*}} segment_size 64 decay 0.5 : tensor<?xf16> -> tensor<?xf32>
// BUF-LABEL: func @tensor_decay
// BUF: tcu.segmented_scan <add> exclusive %{{.*}} into %{{.*}} segment_size 64 decay 0.5 : memref<?xf16> -> memref<?xf32>
func.func @tensor_decay(%in: tensor<?xf16>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %r = tcu.scan <add> exclusive %in into %init segment_size 64 decay 0.5 : tensor<?xf16> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// CHECK-LABEL: func @decay_matrices
// CHECK: tcu.decay_matrix <U> 0.9 part 2 scale 15 : vector<16x16xf16>
// CHECK: tcu.decay_matrix <RowTail> 0.9 scale -15 : vector<16x16xf32>
// CHECK: tcu.decay_matrix <L> -0.5 : vector<16x16xbf16>
func.func @decay_matrices() -> (vector<16x16xf16>, vector<16x16xf32>, vector<16x16xbf16>) {
  %u = tcu.decay_matrix <U> 0.9 part 2 scale 15 : vector<16x16xf16>
  %w = tcu.decay_matrix <RowTail> 0.9 scale -15 : vector<16x16xf32>
  %l = tcu.decay_matrix <L> -0.5 part 0 : vector<16x16xbf16>
  return %u, %w, %l : vector<16x16xf16>, vector<16x16xf32>, vector<16x16xbf16>
}

// A decay given at run time: an f32 value after `decay` (an operand, so the
// generic form lists it last); the mma form's decay matrices take it too.
// CHECK-LABEL: func @decay_value
// CHECK: tcu.segmented_scan <add> exclusive reverse %{{.*}} into %{{.*}} offsets %{{.*}} decay %[[A:.*]] : memref<?xf16>, memref<?xi64> -> memref<?xf32>
// CHECK: tcu.decay_matrix <Carry> %[[A]] : vector<16x16xf32>
// CHECK: tcu.decay_matrix <U> %[[A]] part 2 scale 15 : vector<16x16xf16>
// GENERIC-LABEL: sym_name = "decay_value"
// GENERIC: "tcu.segmented_scan"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{inclusive = false, kind = #tcu.kind<add>, operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 0>
func.func @decay_value(%in: memref<?xf16>, %out: memref<?xf32>, %off: memref<?xi64>, %a: f32) {
  tcu.segmented_scan <add> exclusive reverse %in into %out offsets %off decay %a : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  %w = tcu.decay_matrix <Carry> %a : vector<16x16xf32>
  %u = tcu.decay_matrix <U> %a part 2 scale 15 : vector<16x16xf16>
  return
}

// One decay per segment: `decays %d` (a memref<?xf32>, its type implied).
// CHECK-LABEL: func @decays
// CHECK: tcu.segmented_scan <add> inclusive reverse %{{.*}} into %{{.*}} segment_size 100 decays %{{.*}} : memref<?xf16> -> memref<?xf32>
// CHECK: tcu.segmented_scan <add> exclusive %{{.*}} into %{{.*}} offsets %{{.*}} decays %{{.*}} {variant = #tcu.variant<seg256n>} : memref<?xbf16>, memref<?xi32> -> memref<?xbf16>
// GENERIC-LABEL: sym_name = "decays"
// GENERIC: operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1>
func.func @decays(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>, %b: memref<?xbf16>, %off: memref<?xi32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 decays %d : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive %b into %b offsets %off decays %d {variant = #tcu.variant<seg256n>} : memref<?xbf16>, memref<?xi32> -> memref<?xbf16>
  return
}
