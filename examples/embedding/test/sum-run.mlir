// embed-opt's CPU pipeline (tcuc's raise pass and CPU backend) on a linalg
// sum over a 2-D tensor, run with mlir-runner, against the same program
// through embed-opt's reference pipeline (no tcu: upstream linalg loops).
// The inputs are small integers, so every sum is exact and the two outputs
// must be identical.
// RUN: embed-opt %s --embed-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | grep -v Unranked > %t.tcu
// RUN: embed-opt %s --embed-reference-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs | grep -v Unranked > %t.ref
// RUN: diff %t.tcu %t.ref
// RUN: FileCheck %s --input-file %t.tcu
// The sum was raised (so the diff compared tcu with upstream):
// RUN: embed-opt %s --tcu-raise-linalg | FileCheck %s --check-prefix=RAISED
// RAISED: tcu.reduce <add>
// RAISED-NOT: linalg.reduce

// The first six sums, as `value` gives them (computed apart, in Python).
// CHECK: [199,  183,  188,  168,  238,  168,

func.func @row_sums(%in: tensor<100x64xf16>) -> tensor<100xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %r = linalg.reduce ins(%in : tensor<100x64xf16>) outs(%f : tensor<100xf32>) dimensions = [1]
    (%a: f16, %acc: f32) {
      %x = arith.extf %a : f16 to f32
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<100xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

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
  %c64 = arith.constant 64 : index
  %h = tensor.generate {
  ^bb0(%i: index, %j: index):
    %w = func.call @value(%i, %j, %c64) : (index, index, index) -> i32
    %f = arith.sitofp %w : i32 to f16
    tensor.yield %f : f16
  } : tensor<100x64xf16>
  %sums = call @row_sums(%h) : (tensor<100x64xf16>) -> tensor<100xf32>
  %m = bufferization.to_buffer %sums : tensor<100xf32> to memref<100xf32>
  %u = memref.cast %m : memref<100xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
