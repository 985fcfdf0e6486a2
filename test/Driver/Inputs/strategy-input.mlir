func.func @f(%a: memref<?xf16>, %b: memref<?xf32>, %c: memref<?xf32>) {
  tcu.segmented_reduce <add> %a into %b segment_size 1000 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %a into %c segment_size 65536 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %a into %c segment_size 4194304 : memref<?xf16> -> memref<?xf32>
  return
}
