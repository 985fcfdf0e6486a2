// linalg sums over the innermost dimension become tcu collectives.
// RUN: tcuc-opt %s --tcu-raise-linalg | FileCheck %s

// Tensors, an init filled with zero: tcu.reduce alone, into the fill's
// destination (the fill goes).
// CHECK-LABEL: func.func @tensor_f16(
// CHECK-SAME: %[[IN:.*]]: tensor<4x16xf16>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[IN]] {{\[\[}}0, 1]] : tensor<4x16xf16> into tensor<64xf16>
// CHECK: %[[R:.*]] = tcu.reduce <add> %[[FLAT]] into %[[E]] segment_size 16 : tensor<64xf16> -> tensor<4xf32>
// CHECK-NOT: linalg.reduce
// CHECK: return %[[R]]
func.func @tensor_f16(%in: tensor<4x16xf16>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%in : tensor<4x16xf16>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%a: f16, %acc: f32) {
      %x = arith.extf %a : f16 to f32
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// Rank 3 with a dynamic leading dimension, bf16, the add's operands
// swapped, an init of unknown contents: the sums are added to it.
// CHECK-LABEL: func.func @tensor_bf16_rank3(
// CHECK-SAME: %[[IN:.*]]: tensor<?x3x100xbf16>, %[[INIT:.*]]: tensor<?x3xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[IN]] {{\[\[}}0, 1, 2]] : tensor<?x3x100xbf16> into tensor<?xbf16>
// CHECK: %[[N:.*]] = tensor.dim %[[FLAT]]
// CHECK: %[[SEGS:.*]] = arith.divui %[[N]], %c100
// CHECK: %[[E:.*]] = tensor.empty(%[[SEGS]]) : tensor<?xf32>
// CHECK: %[[R:.*]] = tcu.reduce <add> %[[FLAT]] into %[[E]] segment_size 100 : tensor<?xbf16> -> tensor<?xf32>
// CHECK: %[[SHAPED:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 3] : tensor<?xf32> into tensor<?x3xf32>
// CHECK: %[[SUM:.*]] = linalg.add ins(%[[INIT]], %[[SHAPED]] : tensor<?x3xf32>, tensor<?x3xf32>) outs(%[[INIT]] : tensor<?x3xf32>)
// CHECK: return %[[SUM]]
func.func @tensor_bf16_rank3(%in: tensor<?x3x100xbf16>, %init: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = linalg.reduce ins(%in : tensor<?x3x100xbf16>) outs(%init : tensor<?x3xf32>) dimensions = [2]
    (%a: bf16, %acc: f32) {
      %x = arith.extf %a : bf16 to f32
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?x3xf32>
}

// Rank 1: one segment, a 0-D result.
// CHECK-LABEL: func.func @tensor_f32_rank1(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK: tensor.expand_shape %[[E]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[R:.*]] = tcu.reduce <add> %{{.*}} into %{{.*}} segment_size 1000 : tensor<1000xf32> -> tensor<1xf32>
// CHECK: tensor.collapse_shape %[[R]] [] : tensor<1xf32> into tensor<f32>
func.func @tensor_f32_rank1(%in: tensor<1000xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%in : tensor<1000xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// The linalg.generic form on memrefs, i8 into i32, the init zero-filled
// right before: tcu writes the init directly.
// CHECK-LABEL: func.func @memref_i8_generic(
// CHECK-SAME: %[[IN:.*]]: memref<8x32xi8>, %[[OUT:.*]]: memref<8xi32>
// CHECK: linalg.fill
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[IN]] {{\[\[}}0, 1]] : memref<8x32xi8> into memref<256xi8>
// CHECK: tcu.segmented_reduce <add> %[[FLAT]] into %[[OUT]] segment_size 32 : memref<256xi8> -> memref<8xi32>
// CHECK-NOT: linalg.generic
// CHECK-NEXT: return
func.func @memref_i8_generic(%in: memref<8x32xi8>, %out: memref<8xi32>) {
  %z = arith.constant 0 : i32
  linalg.fill ins(%z : i32) outs(%out : memref<8xi32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<8x32xi8>) outs(%out : memref<8xi32>) {
  ^bb0(%a: i8, %acc: i32):
    %x = arith.extsi %a : i8 to i32
    %s = arith.addi %x, %acc : i32
    linalg.yield %s : i32
  }
  return
}

// Memrefs with an init of unknown contents: a temporary, added to it.
// CHECK-LABEL: func.func @memref_accumulate(
// CHECK-SAME: %[[IN:.*]]: memref<?x3x32xi8>, %[[OUT:.*]]: memref<?x3xi32>
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[IN]] {{\[\[}}0, 1, 2]] : memref<?x3x32xi8> into memref<?xi8>
// CHECK: %[[TMP:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: tcu.segmented_reduce <add> %[[FLAT]] into %[[TMP]] segment_size 32 : memref<?xi8> -> memref<?xi32>
// CHECK: %[[SHAPED:.*]] = memref.expand_shape %[[TMP]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 3] : memref<?xi32> into memref<?x3xi32>
// CHECK: linalg.add ins(%[[OUT]], %[[SHAPED]] : memref<?x3xi32>, memref<?x3xi32>) outs(%[[OUT]] : memref<?x3xi32>)
// CHECK: memref.dealloc %[[TMP]]
func.func @memref_accumulate(%in: memref<?x3x32xi8>, %out: memref<?x3xi32>) {
  linalg.reduce ins(%in : memref<?x3x32xi8>) outs(%out : memref<?x3xi32>) dimensions = [2]
    (%a: i8, %acc: i32) {
      %x = arith.extsi %a : i8 to i32
      %s = arith.addi %x, %acc : i32
      linalg.yield %s : i32
    }
  return
}

// A -0.0 fill is not a zero init for tcu (its sums start at +0.0, linalg's
// at -0.0): the result is added to it.
// CHECK-LABEL: func.func @negative_zero_init(
// CHECK: linalg.fill
// CHECK: tcu.reduce <add>
// CHECK: linalg.add
func.func @negative_zero_init(%in: tensor<4x16xf32>) -> tensor<4xf32> {
  %z = arith.constant -0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%in : tensor<4x16xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
