// tcu-select-strategy on decayed scans: seg16 up to 16, seg256 up to 256,
// whatever the tuned table says of plain scans of the size (packed, seg16n,
// stream, ...); decay 1 is a plain scan and chosen as one; anything longer,
// a runtime size or offsets is an error that names what is implemented.
// RUN: tcuc-opt %s -split-input-file --tcu-select-strategy="chip=sm_90 explain=true" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @short
// CHECK: segment_size 7 decay 0.9 {variant = #tcu.variant<seg16>}
func.func @short(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant seg16, 1 tile(s) per warp: a decayed scan (decay 0.9) has a form in seg16 and seg256 only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 7 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// (A plain f16 scan of 64 takes `packed` from the table.)
// CHECK-LABEL: func @mid
// CHECK: segment_size 64 decay 0.5 {variant = #tcu.variant<seg256>}
func.func @mid(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant seg256, 1 tile(s) per warp: a decayed scan (decay 0.5) has a form in seg16 and seg256 only}}
  tcu.segmented_scan <add> exclusive %in into %out segment_size 64 decay 0.5 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func @plain_one
// CHECK-NOT: variant = #tcu.variant<seg256>
// CHECK: decay 1.0 {
func.func @plain_one(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100000 decay 1.0 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @long(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for a constant segment_size <= 256 (variants 'seg16' and 'seg256') only, got segment_size 257}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 257 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @runtime(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for a constant segment_size <= 256 (variants 'seg16' and 'seg256') only, got a runtime size}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @offsets(%in: memref<?xf16>, %out: memref<?xf32>, %off: memref<?xi64>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for a constant segment_size <= 256 (variants 'seg16' and 'seg256') only, got offsets}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off decay 0.9 : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}
