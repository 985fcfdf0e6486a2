// Input of reverse.test (tcuc inspect).
func.func @f(%in: memref<1000xf16>, %out: memref<1000xf32>, %t: tensor<100xf32>, %e: tensor<100xf32>) -> tensor<100xf32> {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 16 : memref<1000xf16> -> memref<1000xf32>
  %r = tcu.scan <add> exclusive reverse %t into %e segment_size 10 : tensor<100xf32> -> tensor<100xf32>
  return %r : tensor<100xf32>
}
