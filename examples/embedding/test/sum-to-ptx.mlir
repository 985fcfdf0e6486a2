// embed-opt's GPU pipeline on a linalg sum over a 2-D tensor: raised to
// tcu.reduce by tcuc's pass, bufferized in place into the output argument,
// lowered by tcuc's PTX pipeline to Tensor Core instructions. The function is
// a kernel program: 1-D arguments (the runtime's buffers), viewed as 100 x 64.
// RUN: embed-opt %s --embed-to-ptx | FileCheck %s
// RUN: embed-opt %s --tcu-raise-linalg | FileCheck %s --check-prefix=RAISED
// CHECK: gpu.binary @row_sums_kernels
// CHECK-SAME: .target sm_90
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// RAISED: tcu.reduce <add>
// RAISED-SAME: segment_size 64
// RAISED-NOT: linalg.reduce

func.func @row_sums(%in: tensor<6400xf16>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %x = tensor.expand_shape %in [[0, 1]] output_shape [100, 64] : tensor<6400xf16> into tensor<100x64xf16>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%out : tensor<100xf32>) -> tensor<100xf32>
  %r = linalg.reduce ins(%x : tensor<100x64xf16>) outs(%f : tensor<100xf32>) dimensions = [1]
    (%a: f16, %acc: f32) {
      %e = arith.extf %a : f16 to f32
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<100xf32>
}
