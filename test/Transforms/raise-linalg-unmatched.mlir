// What tcu-raise-linalg leaves alone, each with the remark `explain` gives.
// RUN: tcuc-opt %s --tcu-raise-linalg=explain=true -split-input-file -verify-diagnostics | FileCheck %s
// CHECK-NOT: tcu.

func.func @f16_accumulation(%in: tensor<4x16xf16>, %i: tensor<4xf16>) -> tensor<4xf16> {
  // expected-remark @+1 {{not raised to tcu: a reduction of f16 must accumulate in f32 (found f16)}}
  %r = linalg.reduce ins(%in : tensor<4x16xf16>) outs(%i : tensor<4xf16>) dimensions = [1]
    (%a: f16, %acc: f16) {
      %s = arith.addf %a, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<4xf16>
}

// -----

func.func @max(%in: tensor<4x16xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{not raised to tcu: its body does not end in an addition (only sums are raised)}}
  %r = linalg.reduce ins(%in : tensor<4x16xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.maximumf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @outer_dim(%in: tensor<4x16xf32>, %i: tensor<16xf32>) -> tensor<16xf32> {
  // expected-remark @+1 {{not raised to tcu: it does not reduce exactly the innermost dimension}}
  %r = linalg.reduce ins(%in : tensor<4x16xf32>) outs(%i : tensor<16xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}

// -----

func.func @dynamic_innermost(%in: tensor<4x?xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{not raised to tcu: the innermost (reduced) extent must be static and >= 1, got ?}}
  %r = linalg.reduce ins(%in : tensor<4x?xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @strided(%in: memref<4x16xf32, strided<[32, 1]>>, %o: memref<4xf32>) {
  // expected-remark @+1 {{not raised to tcu: a memref operand has a non-identity layout (memref<4x16xf32, strided<[32, 1]>>); only contiguous buffers are flattened}}
  linalg.reduce ins(%in : memref<4x16xf32, strided<[32, 1]>>) outs(%o : memref<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

func.func @product(%in: tensor<4x16xi8>, %i: tensor<4xi32>) -> tensor<4xi32> {
  // expected-remark @+1 {{not raised to tcu: its body does not end in an addition (only sums are raised)}}
  %r = linalg.reduce ins(%in : tensor<4x16xi8>) outs(%i : tensor<4xi32>) dimensions = [1]
    (%a: i8, %acc: i32) {
      %x = arith.extsi %a : i8 to i32
      %s = arith.muli %x, %acc : i32
      linalg.yield %s : i32
    }
  return %r : tensor<4xi32>
}

// -----

func.func @unsigned(%in: tensor<4x16xi8>, %i: tensor<4xi32>) -> tensor<4xi32> {
  // expected-remark @+1 {{not raised to tcu: its addition must take the input element (extended with arith.extsi)}}
  %r = linalg.reduce ins(%in : tensor<4x16xi8>) outs(%i : tensor<4xi32>) dimensions = [1]
    (%a: i8, %acc: i32) {
      %x = arith.extui %a : i8 to i32
      %s = arith.addi %x, %acc : i32
      linalg.yield %s : i32
    }
  return %r : tensor<4xi32>
}

// -----

func.func @scaled(%in: tensor<4x16xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{not raised to tcu: its addition must take the input element (extended with arith.extf)}}
  %r = linalg.reduce ins(%in : tensor<4x16xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %x = arith.mulf %a, %a : f32
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

func.func @transposed_generic(%in: tensor<16x4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark @+1 {{not raised to tcu: its indexing maps are not (identity, identity without the innermost dimension)}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<16x4xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
