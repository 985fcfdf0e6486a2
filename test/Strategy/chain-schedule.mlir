// RUN: tcuc-opt %s --tcu-select-strategy | FileCheck %s

// The single-pass scans' schedules as tcu-select-strategy sets them
// (compiler/lib/Strategy/ChainSchedule.cpp; each rule's measured reason:
// docs/rationale.md#lagged-knobs). 2097152 = 2 MB, 1048576 = 1 MB,
// 6291456 = 6 MB, 9437184 = 9 MB; the 8 MB lag is the default (elided).

// CHECK-LABEL: func.func @lagged_f16
func.func @lagged_f16(%a: memref<?xf16>, %f32: memref<?xf32>, %f16: memref<?xf16>) {
  // f16 -> f32 at 2 tiles of 4 warps: 2 MB prefetch beside a 6 MB lag, 32
  // warps an SM, items shared.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 8, share_items = true>
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 4 : i64} : memref<?xf16> -> memref<?xf32>
  // f16 -> f16 at 2 tiles: no prefetch, the walking blocks.
  // CHECK: schedule = #tcu.chain_schedule<blocks_per_sm = 8, share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %a into %f16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 4 : i64} : memref<?xf16> -> memref<?xf16>
  // f16 -> f16 at 4 tiles of 4 warps: 1 MB prefetch, quads at 20 warps an SM.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 1048576, blocks_per_sm = 5, quads = true, share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %a into %f16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 4 : i64} : memref<?xf16> -> memref<?xf16>
  // The wide shape (4 tiles of 8 warps): 9 MB lag, 3 blocks an SM, the
  // reduced sum first and the early read.
  // CHECK: schedule = #tcu.chain_schedule<lag_bytes = 9437184, blocks_per_sm = 3, quads = true, sum_first = true, read_early = true, share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %a into %f16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 8 : i64} : memref<?xf16> -> memref<?xf16>
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 3, sum_first = true, read_early = true, share_items = true>
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 8 : i64} : memref<?xf16> -> memref<?xf32>
  // No warps_per_block: the lagged scan's default 4 warps.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 1048576, blocks_per_sm = 5, quads = true, share_items = true, walk_tickets = true>, tiles_per_warp = 4 : i64, variant = #tcu.variant<lagged>}
  tcu.segmented_scan <add> inclusive %a into %f16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64} : memref<?xf16> -> memref<?xf16>
  return
}

// CHECK-LABEL: func.func @lagged_bf16
func.func @lagged_bf16(%a: memref<?xbf16>, %f32: memref<?xf32>, %bf16: memref<?xbf16>) {
  // bf16 -> bf16 at 2 tiles: neither shares nor walks.
  // CHECK: schedule = #tcu.chain_schedule<blocks_per_sm = 8>
  tcu.segmented_scan <add> inclusive %a into %bf16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 4 : i64} : memref<?xbf16> -> memref<?xbf16>
  // bf16 -> bf16 in the wide shape: as f16 -> f16.
  // CHECK: schedule = #tcu.chain_schedule<lag_bytes = 9437184, blocks_per_sm = 3, quads = true, sum_first = true, read_early = true, share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %a into %bf16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 8 : i64} : memref<?xbf16> -> memref<?xbf16>
  // bf16 -> bf16 at 4 tiles of 4 warps: walks and shares, fixed order.
  // CHECK: schedule = #tcu.chain_schedule<share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %a into %bf16 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 4 : i64} : memref<?xbf16> -> memref<?xbf16>
  // bf16 -> f32 in the wide shape prefetches as f16 -> f32.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 3, sum_first = true, read_early = true, share_items = true>
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 4 : i64, warps_per_block = 8 : i64} : memref<?xbf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func.func @lagged_other
func.func @lagged_other(%i8: memref<?xi8>, %i32: memref<?xi32>, %f32: memref<?xf32>) {
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 8, share_items = true, walk_tickets = true>
  tcu.segmented_scan <add> inclusive %i8 into %i32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 4 : i64} : memref<?xi8> -> memref<?xi32>
  // One warp a block: 32 blocks an SM, and nothing to walk with.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152, lag_bytes = 6291456, blocks_per_sm = 32, share_items = true>
  tcu.segmented_scan <add> inclusive %i8 into %i32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 1 : i64} : memref<?xi8> -> memref<?xi32>
  // f32 input: the plain algorithm.
  // CHECK: schedule = #tcu.chain_schedule<>
  tcu.segmented_scan <add> inclusive %f32 into %f32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, warps_per_block = 4 : i64} : memref<?xf32> -> memref<?xf32>
  return
}

// CHECK-LABEL: func.func @others
func.func @others(%a: memref<?xf16>, %f32: memref<?xf32>) {
  // The look-back scan prefetches 2 MB.
  // CHECK: schedule = #tcu.chain_schedule<prefetch_bytes = 2097152>
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000000 {variant = #tcu.variant<lookback>, tiles_per_warp = 4 : i64} : memref<?xf16> -> memref<?xf32>
  // A given schedule is kept.
  // CHECK: schedule = #tcu.chain_schedule<lag_bytes = 1024>
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000000 {variant = #tcu.variant<lagged>, tiles_per_warp = 2 : i64, schedule = #tcu.chain_schedule<lag_bytes = 1024>} : memref<?xf16> -> memref<?xf32>
  // Other variants get none.
  // CHECK: segment_size 1000 {tiles_per_warp = 2 : i64, variant = #tcu.variant<seg256n>}
  tcu.segmented_scan <add> inclusive %a into %f32 segment_size 1000 {variant = #tcu.variant<seg256n>, tiles_per_warp = 2 : i64} : memref<?xf16> -> memref<?xf32>
  return
}
