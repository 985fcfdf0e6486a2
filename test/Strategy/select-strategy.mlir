// RUN: tcuc-opt %s --tcu-select-strategy | FileCheck %s
// RUN: tcuc-opt %s --tcu-select-strategy="chip=sm_80 explain=true" 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// The CPU pipeline's setting: variants only; a given tiles_per_warp stays.
// RUN: tcuc-opt %s --tcu-select-strategy="tiles=false" | FileCheck %s --check-prefix=NOTILES
// NOTILES: segment_size 1000 {variant = #tcu.variant<seg256n>}
// NOTILES: segment_size 1000 {tiles_per_warp = 3 : i64, variant = #tcu.variant<seg256n>}
// NOTILES: segment_size 1000 {variant = #tcu.variant<seg256n>}

// The cost model's choices, pinned: the tuned sm_90 table (measured on an
// H100, bench/results) for the swept types, bf16 as f16, an analytic rule
// for types the table lacks, grid for few segments of a static n, and an
// explicit variant kept. Each choice comes with the tiles per warp of its
// row.

// CHECK-LABEL: func.func @reduce_f16
func.func @reduce_f16(%a: memref<?xf16>, %b: memref<?xf32>) {
  // CHECK: segment_size 16 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg16>}
  tcu.segmented_reduce <add> %a into %b segment_size 16 : memref<?xf16> -> memref<?xf32>
  // A segment between rows takes the next larger row (128).
  // CHECK: segment_size 100 {tiles_per_warp = 4 : i64, variant = #tcu.variant<seg16n_strided>}
  tcu.segmented_reduce <add> %a into %b segment_size 100 : memref<?xf16> -> memref<?xf32>
  // 128 and 112: packed (0.902 of the read ceiling against strided's 0.886
  // in the sweep of 2026-11-24, run 8).
  // CHECK: segment_size 128 {tiles_per_warp = 1 : i64, variant = #tcu.variant<packed>}
  tcu.segmented_reduce <add> %a into %b segment_size 128 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 112 {tiles_per_warp = 1 : i64, variant = #tcu.variant<packed>}
  tcu.segmented_reduce <add> %a into %b segment_size 112 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 256 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256>}
  tcu.segmented_reduce <add> %a into %b segment_size 256 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 1000 {tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_reduce <add> %a into %b segment_size 1000 : memref<?xf16> -> memref<?xf32>
  // 65536: the grid at 2 tiles, within 1% of the fastest (grid:8) and of
  // seg256n:8: a tie goes to fewer tiles (bench/results/retune-0.6.31).
  // CHECK: segment_size 65536 {tiles_per_warp = 2 : i64, variant = #tcu.variant<grid>}
  tcu.segmented_reduce <add> %a into %b segment_size 65536 : memref<?xf16> -> memref<?xf32>
  // Tiles per warp given: kept, the variant chosen.
  // CHECK: segment_size 1000 {tiles_per_warp = 3 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_reduce <add> %a into %b segment_size 1000 {tiles_per_warp = 3 : i64} : memref<?xf16> -> memref<?xf32>
  // The row's variant given: the row's tiles per warp.
  // CHECK: segment_size 1000 {tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_reduce <add> %a into %b segment_size 1000 {variant = #tcu.variant<seg256n>} : memref<?xf16> -> memref<?xf32>
  // Beyond the largest row (2^24): its choice.
  // CHECK: segment_size 1073741824 {tiles_per_warp = 4 : i64, variant = #tcu.variant<grid>}
  tcu.segmented_reduce <add> %a into %b segment_size 1073741824 : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func.func @scans
func.func @scans(%h: memref<?xf16>, %f: memref<?xf32>, %bh: memref<?xbf16>,
                 %c: memref<?xi8>, %i: memref<?xi32>) {
  // The streaming scan given (no table row): one tile in flight, its
  // fastest measured (2 and 4 take more registers: rationale.md#stream-section).
  // CHECK: segment_size 100 {tiles_per_warp = 1 : i64, variant = #tcu.variant<stream>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 100 {variant = #tcu.variant<stream>} : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 64 {tiles_per_warp = 1 : i64, variant = #tcu.variant<packed>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 64 : memref<?xf16> -> memref<?xf32>
  // Between rows, a multiple of 16: the 64 row's packed.
  // CHECK: segment_size 48 {tiles_per_warp = 1 : i64, variant = #tcu.variant<packed>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 48 : memref<?xf16> -> memref<?xf32>
  // Packed serves only multiples of 16: the row of the same size after it
  // (the fastest variant serving every size of the row).
  // CHECK: segment_size 100 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 100 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 7 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg16>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 7 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 256 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 256 : memref<?xf16> -> memref<?xf32>
  // Block rows come with their warps per block (measured 4, 8 and 16 each).
  // CHECK: segment_size 4096 {tiles_per_warp = 1 : i64, variant = #tcu.variant<block>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> exclusive %h into %f segment_size 4096 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 65536 {tiles_per_warp = 4 : i64, variant = #tcu.variant<block>, warps_per_block = 16 : i64}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 65536 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 1048576 {tiles_per_warp = 4 : i64, variant = #tcu.variant<block>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %c into %i segment_size 1048576 : memref<?xi8> -> memref<?xi32>
  // The lagged single pass at 4 tiles of 8 warps (tcuc 0.6.28,
  // bench/results/lagged-8warps/sweep: 0.970-0.978 / 0.877-0.883 of the
  // copy ceiling against 0.953-0.963 / 0.847-0.851 at 4 tiles of 4 warps)
  // from 2^17 on for f16->f32 (the block scan 0.93-0.97 at 2^17-2^21) and
  // from 2^22 on for f16->f16 (below, the block scan is ahead), i8->i32 the
  // grid; larger than every row, the largest row's choice.
  // CHECK: segment_size 1048576 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 1048576 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 4194304 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 4194304 : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 1099511627776 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 1099511627776 : memref<?xf16> -> memref<?xf32>
  // f16->f16 at 2^21: lagged:4:8 (0.914 of the copy ceiling against the
  // block scan's 0.904, defaults-0.6.30).
  // CHECK: segment_size 2097152 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %h segment_size 2097152 : memref<?xf16> -> memref<?xf16>
  // CHECK: segment_size 4194304 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %h segment_size 4194304 : memref<?xf16> -> memref<?xf16>
  // CHECK: segment_size 16777216 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %h segment_size 16777216 : memref<?xf16> -> memref<?xf16>
  // CHECK: segment_size 1099511627776 {schedule = #tcu.chain_schedule<{{.*}}>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>, warps_per_block = 8 : i64}
  tcu.segmented_scan <add> inclusive %h into %h segment_size 1099511627776 : memref<?xf16> -> memref<?xf16>
  // CHECK: segment_size 4194304 {tiles_per_warp = 1 : i64, variant = #tcu.variant<grid>}
  tcu.segmented_scan <add> inclusive %c into %i segment_size 4194304 : memref<?xi8> -> memref<?xi32>
  // Warps per block given: kept, the row's tiles per warp added.
  // CHECK: segment_size 4096 {tiles_per_warp = 1 : i64, variant = #tcu.variant<block>, warps_per_block = 2 : i64}
  tcu.segmented_scan <add> exclusive %h into %f segment_size 4096 {variant = #tcu.variant<block>, warps_per_block = 2} : memref<?xf16> -> memref<?xf32>
  // bf16 uses the f16 rows.
  // CHECK: segment_size 256 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256>}
  tcu.segmented_scan <add> inclusive %bh into %f segment_size 256 : memref<?xbf16> -> memref<?xf32>
  // CHECK: segment_size 1000 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_scan <add> inclusive %c into %i segment_size 1000 : memref<?xi8> -> memref<?xi32>
  // f32 input has no table rows: the analytic rule.
  // CHECK: segment_size 100 {tiles_per_warp = 1 : i64, variant = #tcu.variant<seg256>}
  tcu.segmented_scan <add> inclusive %f into %f segment_size 100 : memref<?xf32> -> memref<?xf32>
  // An explicit variant is kept; its tiles and warps come from the row that
  // measured that variant at the size (the 128 row's block: 1 tile, 4
  // warps), else the analytic rule (f32 input: 1 tile).
  // CHECK: segment_size 100 {tiles_per_warp = 1 : i64, variant = #tcu.variant<block>, warps_per_block = 4 : i64}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 100 {variant = #tcu.variant<block>} : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 4194304 {tiles_per_warp = 1 : i64, variant = #tcu.variant<grid>}
  tcu.segmented_scan <add> inclusive %h into %f segment_size 4194304 {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  // CHECK: segment_size 100 {tiles_per_warp = 1 : i64, variant = #tcu.variant<block>}
  tcu.segmented_scan <add> inclusive %f into %f segment_size 100 {variant = #tcu.variant<block>} : memref<?xf32> -> memref<?xf32>
  return
}

// CHECK-LABEL: func.func @static_n
func.func @static_n(%a: memref<1000000xf16>, %b: memref<125xf32>, %c: memref<1000xf32>) {
  // The table says seg256n for 8000, but 125 segments cannot occupy the GPU
  // a warp each: the row with as few segments at n = 2^28 (2^22) chose the
  // grid, with the tiles the 8192 row measured best for the grid (4).
  // CHECK: segment_size 8000 {tiles_per_warp = 4 : i64, variant = #tcu.variant<grid>}
  tcu.segmented_reduce <add> %a into %b segment_size 8000 : memref<1000000xf16> -> memref<125xf32>
  // Segments too short to be worth splitting keep the table's choice.
  // CHECK: segment_size 1000 {tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_reduce <add> %a into %c segment_size 1000 : memref<1000000xf16> -> memref<1000xf32>
  return
}

// EXPLAIN: remark: variant seg16, 1 tile(s) per warp: tuned sm_90 table, reduce f16->f32 segment row 16 (no sm_80 table)
// EXPLAIN: remark: variant seg16n_strided, 4 tile(s) per warp: tuned sm_90 table, reduce f16->f32 segment row 128 (no sm_80 table)
// EXPLAIN: remark: variant block, 1 tile(s) per warp, 8 warps per block: tuned sm_90 table, scan f16->f32 segment row 4096 (no sm_80 table)
// EXPLAIN: remark: variant seg256, 1 tile(s) per warp: analytic: segment <= 256: one tile per segment
// EXPLAIN: remark: variant grid, 4 tile(s) per warp: n = 1000000 gives 125 segments; the table's row with as few (segment 2147483 at n = 2^28) chose grid
