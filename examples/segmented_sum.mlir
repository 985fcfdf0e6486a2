// The default example of tcuc's main job: a segmented sum over 1000 halves in
// segments of 16 and an exclusive scan in segments of 256, both accumulating
// in f32.
//
//   tcuc inspect examples/segmented_sum.mlir
//   tcuc-opt examples/segmented_sum.mlir
func.func @segmented_sum(%in: memref<1000xf16>, %sums: memref<63xf32>) {
  tcu.segmented_reduce <add> %in into %sums segment_size 16
      : memref<1000xf16> -> memref<63xf32>
  return
}

func.func @segmented_prefix_sum(%in: memref<?xbf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive %in into %out segment_size 256
      : memref<?xbf16> -> memref<?xf32>
  return
}
