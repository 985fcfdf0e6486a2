// convert-tcu-to-mma without tcu-select-strategy: a decayed scan whose
// default variant has no decayed form is an error, not a plain scan.
// RUN: tcuc-opt %s --convert-tcu-to-mma -verify-diagnostics

func.func @long(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for a constant segment_size <= 256 (variants 'seg16' and 'seg256') only, got variant 'seg256n'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}
