// tcu-select-strategy on decayed scans: packed (groups of whole segments)
// up to 960 (16-bit input, one decay) or 768, but seg16 at 16 (whole rows)
// and seg256 at 256 (whole tiles), whatever the tuned table says of plain
// scans of the size (seg16n, stream, ...); seg256n with 2 tiles in flight
// for anything longer, a runtime size or offsets; decay 1 is a plain scan
// and chosen as one.
// RUN: tcuc-opt %s -split-input-file --tcu-select-strategy="chip=sm_90 explain=true" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @short
// CHECK: segment_size 7 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 16 decay 0.9 {decay_form = #tcu.decay_form<matrices>, variant = #tcu.variant<seg16>}
// CHECK: segment_size 1 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
func.func @short(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp: a decayed scan (decay 0.9) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 7 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant seg16, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 16 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// (A plain f16 scan of 64 takes `packed` of 16m-element segments from the
// table; a decayed one packs any size.)
// CHECK-LABEL: func @mid
// CHECK: segment_size 64 decay 0.5 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
func.func @mid(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp: a decayed scan (decay 0.5) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> exclusive %in into %out segment_size 64 decay 0.5 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func @odd
// CHECK: segment_size 33 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
func.func @odd(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 33 decay 0.9 : memref<?xf32> -> memref<?xf32>
  return
}

// -----

// A tile 3/4 full or more is packed too (a partial tile a segment measured
// slower), whole vectors or not.
// CHECK-LABEL: func @aligned
// CHECK: segment_size 200 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 199 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 184 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
func.func @aligned(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 200 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 199 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 184 decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func @one_tile
// CHECK: segment_size 256 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<seg256>}
func.func @one_tile(%in: memref<?xf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant seg256, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 256 decay 0.9 : memref<?xf16> -> memref<?xf32>
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

// CHECK-LABEL: func @long
// CHECK: segment_size 257 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 960 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 961 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// CHECK: segment_size 768 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 769 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// CHECK: segment_size 768 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 769 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// One decay of 16-bit input packs up to 960; f32 input and per-segment
// decays up to 768.
func.func @long(%in: memref<?xf16>, %out: memref<?xf32>, %in32: memref<?xf32>, %d: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp: a decayed scan (decay 0.9) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 257 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 960 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp: a decayed scan (decay 0.9) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 961 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in32 into %out segment_size 768 decay 0.9 : memref<?xf32> -> memref<?xf32>
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in32 into %out segment_size 769 decay 0.9 : memref<?xf32> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 768 decays %d : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 769 decays %d : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func @runtime
// CHECK: segment_size %{{.*}} decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
func.func @runtime(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// (A plain scan over offsets takes `balanced`.)
// CHECK-LABEL: func @offsets
// CHECK: offsets %{{.*}} decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
func.func @offsets(%in: memref<?xf16>, %out: memref<?xf32>, %off: memref<?xi64>) {
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out offsets %off decay 0.9 : memref<?xf16>, memref<?xi64> -> memref<?xf32>
  return
}

// -----

// tiles_per_warp given is kept.
// CHECK-LABEL: func @given_tiles
// CHECK: segment_size 5000 decay 0.5 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 4 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
func.func @given_tiles(%in: memref<?xf32>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant seg256n, 4 tile(s) per warp}}
  tcu.segmented_scan <add> exclusive %in into %out segment_size 5000 decay 0.5 {tiles_per_warp = 4} : memref<?xf32> -> memref<?xf32>
  return
}

// -----

// From kDecayedGridMinSegment on, a constant size takes the grid.
// CHECK-LABEL: func @grid
// CHECK: segment_size 131072 decay 0.999 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<grid>}
func.func @grid(%in: memref<?xbf16>, %out: memref<?xf32>) {
  // expected-remark @+1 {{variant grid, 2 tile(s) per warp}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 131072 decay 0.999 : memref<?xbf16> -> memref<?xf32>
  return
}

// -----

// The form of the tiles (decay_form): the recurrence on CUDA cores for f32
// input (@given_tiles), packed (@mid), seg256 (@one_tile), seg256n (@long,
// @runtime, @offsets), the grid (@grid) and per-segment decays; the Tensor
// Core matrices for 16-bit seg16 only.
//
// Per-segment decays: the same variants (packed, seg16 and seg256 for short
// segments, their tiles scanned on CUDA cores), the grid from 131072.
// CHECK-LABEL: func @per_segment
// CHECK: segment_size 10 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 100 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: segment_size 131071 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// CHECK: segment_size 1000000 decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<grid>}
func.func @per_segment(%in: memref<?xf16>, %out: memref<?xf32>, %d: memref<?xf32>) {
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp: a decayed scan (decay per segment) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 10 decays %d : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed, 1 tile(s) per warp: a decayed scan (decay per segment) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decays %d : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant seg256n, 2 tile(s) per warp: a decayed scan (decay per segment) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 131071 decays %d : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant grid, 2 tile(s) per warp: a decayed scan (decay per segment) has a form in seg16, seg256, packed, seg256n and grid only}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000000 decays %d : memref<?xf16> -> memref<?xf32>
  return
}

// -----

// The walk schedule (docs/rationale.md#walk-schedule): walks prefetch two
// tiles ahead, but reverse 16-bit ones; reverse packed groups of a
// constant S prefetch the group (16-bit) or two tiles ahead (f32); the
// packed class kernel (a runtime S) is capped at 56 registers, but forward
// with per-segment decays (none) and reverse 16-bit with them (the group
// prefetched instead).
// CHECK-LABEL: func @walk_schedule
// CHECK: inclusive reverse %{{.*}} segment_size 1000 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>} : memref<?xf16>
// CHECK: inclusive %{{.*}} segment_size 1000 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// CHECK: inclusive reverse %{{.*}} segment_size 1000 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>} : memref<?xf32>
// CHECK: inclusive reverse %{{.*}} segment_size 100 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 16>}
// CHECK: inclusive reverse %{{.*}} segment_size 100 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>}
// CHECK: inclusive %{{.*}} segment_size 100 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: inclusive %{{.*}} segment_size %{{.*}} decay 0.9 {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>, walk_schedule = #tcu.walk_schedule<max_registers = 56>}
// CHECK: inclusive %{{.*}} segment_size %{{.*}} decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>}
// CHECK: inclusive reverse %{{.*}} segment_size %{{.*}} decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 16>}
// CHECK: inclusive reverse %{{.*}} segment_size %{{.*}} decays %{{.*}} {decay_form = #tcu.decay_form<recurrence>, variant = #tcu.variant<packed>, walk_schedule = #tcu.walk_schedule<max_registers = 56>}
// CHECK: inclusive %{{.*}} segment_size 1000 decay 0.9 {decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>, walk_schedule = #tcu.walk_schedule<>}
func.func @walk_schedule(%in: memref<?xf16>, %in32: memref<?xf32>, %out: memref<?xf32>, %s: index, %d: memref<?xf32>) {
  // expected-remark @+1 {{variant seg256n}}
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 1000 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{tiles by recurrence; walk schedule #tcu.walk_schedule<prefetch_tiles = 2> (docs/rationale.md#walk-schedule)}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant seg256n}}
  tcu.segmented_scan <add> inclusive reverse %in32 into %out segment_size 1000 decay 0.9 : memref<?xf32> -> memref<?xf32>
  // expected-remark @+1 {{variant packed}}
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 decay 0.9 : memref<?xf16> -> memref<?xf32>
  // expected-remark @+1 {{variant packed}}
  tcu.segmented_scan <add> inclusive reverse %in32 into %out segment_size 100 decay 0.9 : memref<?xf32> -> memref<?xf32>
  // expected-remark @+1 {{variant packed}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 100 decay 0.9 : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decays %d {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size %s decays %d {variant = #tcu.variant<packed>} : memref<?xf16> -> memref<?xf32>
  tcu.segmented_scan <add> inclusive reverse %in32 into %out segment_size %s decays %d {variant = #tcu.variant<packed>} : memref<?xf32> -> memref<?xf32>
  // A schedule given is kept.
  // expected-remark @+1 {{variant seg256n}}
  tcu.segmented_scan <add> inclusive %in into %out segment_size 1000 decay 0.9 {walk_schedule = #tcu.walk_schedule<>} : memref<?xf16> -> memref<?xf32>
  return
}
