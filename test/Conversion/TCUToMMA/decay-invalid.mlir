// convert-tcu-to-mma without tcu-select-strategy: a decayed scan whose
// default variant has no decayed form (offsets default to `balanced`) is an
// error, not a plain scan.
// RUN: tcuc-opt %s --convert-tcu-to-mma -verify-diagnostics

func.func @offsets(%in: memref<?xf16>, %out: memref<?xf32>, %off: memref<?xi64>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for variants 'seg16', 'seg256', 'packed', 'seg256n' and 'grid' only, got variant 'balanced'}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off decay 0.9 : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}
