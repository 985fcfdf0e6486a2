func.func @f(%a: memref<?xf16>, %b: memref<?xf32>) {
  tcu.segmented_reduce <add> %a into %b segment_size 1000 : memref<?xf16> -> memref<?xf32>
  return
}
