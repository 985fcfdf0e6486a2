// Crashes MLIR 22's linalg.reduce parser (a float in `dimensions`); the
// fuzz target skips such inputs (mayHitUpstreamReduceParserCrash).
func.func @f(%a: tensor<4x8xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1.0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
