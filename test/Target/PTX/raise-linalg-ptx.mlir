// The embedding path to PTX: a linalg sum over a 2-D tensor (the kernel
// program takes 1-D buffers, viewed as 64 x 48), raised, bufferized in
// place into the output argument, lowered to PTX on Tensor Cores.
// RUN: tcuc-opt %s --tcu-raise-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --tcu-to-ptx | FileCheck %s
// CHECK: gpu.binary @row_sums_kernels
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

func.func @row_sums(%in: tensor<3072xf16>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %x = tensor.expand_shape %in [[0, 1]] output_shape [64, 48] : tensor<3072xf16> into tensor<64x48xf16>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%out : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%x : tensor<64x48xf16>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%a: f16, %acc: f32) {
      %e = arith.extf %a : f16 to f32
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}
