// Row sums on N-D tensors with results, static and dynamic rows, and one
// added to a given init: the linalg front door's GPU route with host-launch
// (host-launch.test).
func.func @rowsum(%in: tensor<64x1000xf16>) -> tensor<64xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%in : tensor<64x1000xf16>) outs(%init : tensor<64xf32>) dimensions = [1]
    (%x: f16, %acc: f32) {
      %xf = arith.extf %x : f16 to f32
      %s = arith.addf %xf, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}
func.func @rowsum_dyn(%in: tensor<?x1000xf16>) -> tensor<?xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %b = tensor.dim %in, %c0 : tensor<?x1000xf16>
  %e = tensor.empty(%b) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%in : tensor<?x1000xf16>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%x: f16, %acc: f32) {
      %xf = arith.extf %x : f16 to f32
      %s = arith.addf %xf, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}
func.func @rowsum_init(%in: tensor<?x1000xf16>, %init: tensor<?xf32>) -> tensor<?xf32> attributes {llvm.emit_c_interface} {
  %r = linalg.reduce ins(%in : tensor<?x1000xf16>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%x: f16, %acc: f32) {
      %xf = arith.extf %x : f16 to f32
      %s = arith.addf %xf, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}
#rows = affine_map<(b, s) -> (b, s)>
#sums = affine_map<(b, s) -> (b)>
func.func @rowsum_generic(%in: tensor<?x1000xf16>) -> tensor<?xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %b = tensor.dim %in, %c0 : tensor<?x1000xf16>
  %e = tensor.empty(%b) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#rows, #sums], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<?x1000xf16>) outs(%init : tensor<?xf32>) {
    ^bb0(%x: f16, %acc: f32):
      %xf = arith.extf %x : f16 to f32
      %s = arith.addf %acc, %xf : f32
      linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
