// A tensor program with linalg sums, raised to tcu and run on the CPU
// backend, against the same program lowered by upstream linalg loops (the
// reference). Inputs are small integers, so every sum is exact in f32 and
// the two outputs must be identical.
// RUN: tcuc-opt %s --tcu-raise-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-linalg-to-loops --tcu-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | grep -v Unranked > %t.tcu
// RUN: tcuc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-linalg-to-loops --tcu-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | grep -v Unranked > %t.ref
// RUN: diff %t.tcu %t.ref
// RUN: FileCheck %s --input-file %t.tcu
// Both sums were raised:
// RUN: tcuc-opt %s --tcu-raise-linalg | FileCheck %s --check-prefix=RAISED
// RAISED-COUNT-2: tcu.reduce <add>
// RAISED-NOT: linalg.reduce

// The first sums as `value` below gives them (computed apart, in Python):
// f16 rows of 48, then i8 rows of 20 plus 5.
// CHECK: [123,  138,  150,  159,  142,
// CHECK: {{\[\[}}78,   51,   60,   59,   71],

func.func @row_sums(%in: tensor<64x48xf16>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%in : tensor<64x48xf16>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%a: f16, %acc: f32) {
      %x = arith.extf %a : f16 to f32
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}

// Rank 3, i8 into i32, added to an init of fives (linalg's semantics).
func.func @plus_five(%in: tensor<6x5x20xi8>) -> tensor<6x5xi32> {
  %five = arith.constant 5 : i32
  %e = tensor.empty() : tensor<6x5xi32>
  %f = linalg.fill ins(%five : i32) outs(%e : tensor<6x5xi32>) -> tensor<6x5xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
                                        affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in : tensor<6x5x20xi8>) outs(%f : tensor<6x5xi32>) {
  ^bb0(%a: i8, %acc: i32):
    %x = arith.extsi %a : i8 to i32
    %s = arith.addi %acc, %x : i32
    linalg.yield %s : i32
  } -> tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

// Element (i, j) of a row of `width`: ((i * width + j)^2 * 7 mod 23) - 11.
func.func @value(%i: index, %j: index, %width: index) -> i32 {
  %c7 = arith.constant 7 : index
  %c23 = arith.constant 23 : index
  %c11 = arith.constant 11 : index
  %k = arith.muli %i, %width : index
  %l = arith.addi %k, %j : index
  %sq = arith.muli %l, %l : index
  %m = arith.muli %sq, %c7 : index
  %r = arith.remui %m, %c23 : index
  %v = arith.subi %r, %c11 : index
  %w = arith.index_cast %v : index to i32
  return %w : i32
}

func.func @main() {
  %c48 = arith.constant 48 : index
  %c20 = arith.constant 20 : index
  %c5 = arith.constant 5 : index
  %h = tensor.generate {
  ^bb0(%i: index, %j: index):
    %w = func.call @value(%i, %j, %c48) : (index, index, index) -> i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<64x48xf16>
  %sums = call @row_sums(%h) : (tensor<64x48xf16>) -> tensor<64xf32>
  %m = bufferization.to_buffer %sums : tensor<64xf32> to memref<64xf32>
  %u = memref.cast %m : memref<64xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  %b = tensor.generate {
  ^bb0(%i: index, %j: index, %k: index):
    %ij = arith.muli %i, %c5 : index
    %row = arith.addi %ij, %j : index
    %w = func.call @value(%row, %k, %c20) : (index, index, index) -> i32
    %t = arith.trunci %w : i32 to i8
    tensor.yield %t : i8
  } : tensor<6x5x20xi8>
  %isums = call @plus_five(%b) : (tensor<6x5x20xi8>) -> tensor<6x5xi32>
  %im = bufferization.to_buffer %isums : tensor<6x5xi32> to memref<6x5xi32>
  %iu = memref.cast %im : memref<6x5xi32> to memref<*xi32>
  call @printMemrefI32(%iu) : (memref<*xi32>) -> ()
  return
}
