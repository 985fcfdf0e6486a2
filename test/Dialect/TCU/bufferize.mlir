// One-shot bufferization of the tensor forms: the init's buffer is written
// in place and never read (no copy of a tensor.empty); a buffer without a
// known unit stride goes through a contiguous copy.
// RUN: tcuc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s
// RUN: tcuc-opt %s --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=STRIDED

// CHECK-LABEL: func.func @reduce(
// CHECK-SAME: %[[IN:.*]]: memref<1000xf16>) -> memref<63xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<63xf32>
// CHECK-NOT: memref.copy
// CHECK: tcu.segmented_reduce <add> %[[IN]] into %[[OUT]] segment_size 16 {tiles_per_warp = 2 : i64, variant = #tcu.variant<block>, warps_per_block = 4 : i64} : memref<1000xf16> -> memref<63xf32>
// CHECK: return %[[OUT]]
// STRIDED-LABEL: func.func @reduce(
// STRIDED-SAME: %[[IN:.*]]: memref<1000xf16, strided<[?], offset: ?>>
// STRIDED: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<63xf32>
// STRIDED: %[[FLAT:.*]] = memref.alloc() {{.*}} : memref<1000xf16>
// STRIDED: memref.copy %[[IN]], %[[FLAT]]
// STRIDED: tcu.segmented_reduce <add> %[[FLAT]] into %[[OUT]]
func.func @reduce(%h: tensor<1000xf16>) -> tensor<63xf32> {
  %e = tensor.empty() : tensor<63xf32>
  %r = tcu.reduce <add> %h into %e segment_size 16 {tiles_per_warp = 2 : i64, variant = #tcu.variant<block>, warps_per_block = 4 : i64} : tensor<1000xf16> -> tensor<63xf32>
  return %r : tensor<63xf32>
}

// The destination is a function argument: written in place.
// CHECK-LABEL: func.func @scan_in_place(
// CHECK-SAME: %[[IN:.*]]: memref<?xi8>, %[[DST:.*]]: memref<?xi32>) -> memref<?xi32>
// CHECK: tcu.segmented_scan <add> exclusive %[[IN]] into %[[DST]] segment_size 100 : memref<?xi8> -> memref<?xi32>
// CHECK: return %[[DST]]
func.func @scan_in_place(%c: tensor<?xi8>, %d: tensor<?xi32>) -> tensor<?xi32> {
  %r = tcu.scan <add> exclusive %c into %d segment_size 100 : tensor<?xi8> -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// A runtime segment size passes through to the buffer form.
// CHECK-LABEL: func.func @runtime_size(
// CHECK-SAME: %[[IN:.*]]: memref<?xf16>, %[[DST:.*]]: memref<?xf32>, %[[S:.*]]: index)
// CHECK: tcu.segmented_reduce <add> %[[IN]] into %[[DST]] segment_size %[[S]] : memref<?xf16> -> memref<?xf32>
func.func @runtime_size(%c: tensor<?xf16>, %d: tensor<?xf32>, %s: index) -> tensor<?xf32> {
  %r = tcu.reduce <add> %c into %d segment_size %s : tensor<?xf16> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// Offsets go through as a read-only buffer (the buffer form's fourth
// operand); the results are written in place.
// CHECK-LABEL: func.func @offsets(
// CHECK-SAME: %[[IN:.*]]: memref<?xf16>, %[[OFF:.*]]: memref<5xi32>
// CHECK: tcu.segmented_reduce <add> %[[IN]] into %{{.*}} offsets %[[OFF]] : memref<?xf16>, memref<5xi32> -> memref<4xf32>
// CHECK: tcu.segmented_scan <add> inclusive %[[IN]] into %{{.*}} offsets %[[OFF]] : memref<?xf16>, memref<5xi32> -> memref<?xf32>
func.func @offsets(%h: tensor<?xf16>, %off: tensor<5xi32>, %n: index) -> (tensor<4xf32>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = tcu.reduce <add> %h into %e offsets %off : tensor<?xf16>, tensor<5xi32> -> tensor<4xf32>
  %d = tensor.empty(%n) : tensor<?xf32>
  %s = tcu.scan <add> inclusive %h into %d offsets %off : tensor<?xf16>, tensor<5xi32> -> tensor<?xf32>
  return %r, %s : tensor<4xf32>, tensor<?xf32>
}
