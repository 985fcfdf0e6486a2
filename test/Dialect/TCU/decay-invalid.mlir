// The verifier's rules for `decay` (tcu.segmented_scan, tcu.scan) and
// tcu.decay_matrix, each with its exact message.
// RUN: tcuc-opt %s -split-input-file -verify-diagnostics

func.func @nan(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decay must be finite, got NaN}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0x7FC00000 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @inf(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decay must be finite, got an infinity}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0xFF800000 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @above_one(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decay must lie in [-1, 1], got 1.5 (the weights a^k would grow past the f16 and f32 ranges)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 1.5 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @below_minus_one(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decay must lie in [-1, 1], got -2.0}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay -2.0 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @i8(%in: memref<?xi8>, %out: memref<?xi32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op a decayed scan takes f16, bf16 or f32 input, got 'i8' (integer sums have no decay)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0.5 : memref<?xi8> -> memref<?xi32>
  return
}

// -----

// decay 1 is the plain scan: i8 takes it.
func.func @i8_plain(%in: memref<?xi8>, %out: memref<?xi32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 1.0 : memref<?xi8> -> memref<?xi32>
  return
}

// -----

func.func @variant(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for variants 'seg16', 'seg256', 'packed', 'seg256n' and 'grid' only, got 'stream'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay 0.5 {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @tensor_nan(%in: tensor<?xf16>, %init: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'tcu.scan' op decay must be finite, got NaN}}
  %r = tcu.scan <add> inclusive %in into %init segment_size 16 decay 0x7FC00000 : tensor<?xf16> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @tensor_i8(%in: tensor<?xi8>, %init: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+1 {{'tcu.scan' op a decayed scan takes f16, bf16 or f32 input, got 'i8'}}
  %r = tcu.scan <add> inclusive %in into %init segment_size 16 decay 0.25 : tensor<?xi8> -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

func.func @matrix_type() -> vector<16x16xi8> {
  // expected-error @+1 {{'tcu.decay_matrix' op element type must be f16, bf16 (mma operand parts) or f32 (weights), got 'i8'}}
  %m = tcu.decay_matrix <U> 0.5 : vector<16x16xi8>
  return %m : vector<16x16xi8>
}

// -----

func.func @matrix_f32_part() -> vector<16x16xf32> {
  // expected-error @+1 {{'tcu.decay_matrix' op an f32 decay matrix is one part (0), got part 1}}
  %m = tcu.decay_matrix <RowHead> 0.5 part 1 : vector<16x16xf32>
  return %m : vector<16x16xf32>
}

// -----

func.func @matrix_scale() -> vector<16x16xf16> {
  // expected-error @+1 {{'tcu.decay_matrix' op scale 16 puts entries out of range for 'f16'}}
  %m = tcu.decay_matrix <U> 0.5 scale 16 : vector<16x16xf16>
  return %m : vector<16x16xf16>
}

// -----

func.func @matrix_decay() -> vector<16x16xf16> {
  // expected-error @+1 {{'tcu.decay_matrix' op decay must be finite and in [-1, 1]}}
  %m = tcu.decay_matrix <U> 1.25 : vector<16x16xf16>
  return %m : vector<16x16xf16>
}

// -----

// A decay given at run time has the constant's rules where they do not
// depend on its value.
func.func @decay_value_i8(%in: memref<?xi8>, %out: memref<?xi32>, %a: f32) {
  // expected-error @+1 {{'tcu.segmented_scan' op a decayed scan takes f16, bf16 or f32 input, got 'i8' (integer sums have no decay)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay %a : memref<?xi8> -> memref<?xi32>
  return
}

// -----

func.func @decay_value_variant(%in: memref<?xf16>, %out: memref<?xf32>, %a: f32) {
  // expected-error @+1 {{'tcu.segmented_scan' op decayed scans are implemented for variants 'seg16', 'seg256', 'packed', 'seg256n' and 'grid' only, got 'lagged'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay %a {variant = #tcu.variant<lagged>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @decay_value_and_constant(%in: memref<?xf16>, %out: memref<?xf32>, %a: f32) {
  // expected-error @+1 {{'tcu.segmented_scan' op takes one decay: a constant, a value or one per segment (decays), not several}}
  "tcu.segmented_scan"(%in, %out, %a) <{kind = #tcu.kind<add>, inclusive = true, segment_size = 100 : i64, decay = 0.5 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1, 0>}> : (memref<?xf16>, memref<?xf32>, f32) -> ()
  return
}

// -----

func.func @decay_matrix_no_decay() {
  // expected-error @+1 {{'tcu.decay_matrix' op takes one decay: a constant or a value}}
  %u = "tcu.decay_matrix"() <{kind = #tcu.decay_matrix<U>, part = 0 : i64, scale = 0 : i64}> : () -> vector<16x16xf32>
  return
}

// -----

func.func @decays_and_decay(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op takes one decay: a constant, a value or one per segment (decays), not several}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay 0.5 decays %d : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @decays_i8(%in: memref<?xi8>, %out: memref<?xi32>, %d: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op a decayed scan takes f16, bf16 or f32 input, got 'i8' (integer sums have no decay)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decays %d : memref<?xi8> -> memref<?xi32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @decays_type(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf16>) {
  // expected-error @+1 {{use of value '%d' expects different type than prior uses: 'memref<?xf32>' vs 'memref<?xf16>'}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decays %d : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @decay_form_plain(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op decay_form applies to decayed scans only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 {decay_form = #tcu.decay_form<recurrence>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @decays_matrices(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op per-segment decays have no matrix form (decay_form must be recurrence)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decays %d {decay_form = #tcu.decay_form<matrices>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// A decayed scan's `packed` takes any constant size up to 4096 (whole
// segments packed into a warp's run of tiles) ...
func.func @packed_odd(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size 33 decay 0.9 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive reverse %in into %out segment_size 255 decays %d {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %out segment_size 4096 decay 0.9 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// ... where a plain scan's packs 16m-element segments only.
func.func @packed_plain(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'packed' needs a segment_size that is a multiple of 16, at most 256, got segment_size 33}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 33 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @packed_long(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'packed' of a decayed scan needs segment_size <= 4096, got segment_size 4097}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 4097 decay 0.9 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// A decayed scan's packed takes a runtime size (the packed class kernel:
// 257..4096 at launch) ...
func.func @packed_runtime(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> exclusive reverse %in into %out segment_size %s decays %d {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// ... a plain scan's does not.
func.func @packed_runtime_plain(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'packed' takes a runtime segment size in decayed scans only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @packed_matrices(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op variant 'packed' of a decayed scan has no matrix form (decay_form must be recurrence)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 33 decay 0.9 {decay_form = #tcu.decay_form<matrices>, variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @walk_schedule_plain(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op walk_schedule applies to decayed scans of variants 'packed', 'seg256n' and 'grid' only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 {walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @walk_schedule_seg16(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{'tcu.segmented_scan' op walk_schedule applies to decayed scans of variants 'packed', 'seg256n' and 'grid' only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0.9 {variant = #tcu.variant<seg16>, walk_schedule = #tcu.walk_schedule<max_registers = 56>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @walk_schedule_far(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{prefetch_tiles must be in [0, 16], got 17}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 {walk_schedule = #tcu.walk_schedule<prefetch_tiles = 17>} : memref<?xf16> -> memref<?xf32>
  return
}

// -----

func.func @walk_schedule_registers(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-error @+1 {{max_registers must be 0 or in [24, 255], got 300}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 {walk_schedule = #tcu.walk_schedule<max_registers = 300>} : memref<?xf16> -> memref<?xf32>
  return
}
