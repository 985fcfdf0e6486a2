// A decayed scan's #tcu.walk_schedule (docs/rationale.md#walk-schedule):
// `prefetch_tiles = p` asks L2 for tiles 1..p-1 of a warp's walk when it
// starts and for tile t+p with tile t (a packed group of p >= 16 tiles:
// the whole group at its start); `max_registers` marks the work items
// `tcu.max_registers`, which the kernel gets as `.maxnreg`.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse | FileCheck %s
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_90" | FileCheck %s --check-prefix=PTX

// PTX: prefetch.L2
// CHECK-LABEL: func @walk_prefetch
// CHECK: scf.parallel
// CHECK: tcu.prefetch %{{.*}}[%{{.*}}], %{{.*}} : memref<?xf16>
// CHECK: scf.for %[[T:[^ ]*]] = %c0
// CHECK: arith.addi %[[T]], %c2 : index
// CHECK: tcu.prefetch
// CHECK: tcu.load_tile
// CHECK: tcu.linear_recurrence
// CHECK-NOT: tcu.max_registers
// CHECK: return
func.func @walk_prefetch(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<seg256n>, decay_form = #tcu.decay_form<recurrence>, tiles_per_warp = 1, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 2>} : memref<?xf16> -> memref<?xf32>
  return
}

// The whole group at its start (16 tiles: no prefetch in the tile loop).
// CHECK-LABEL: func @group_prefetch
// CHECK: scf.parallel
// CHECK: tcu.prefetch
// CHECK: scf.for
// CHECK-NOT: tcu.prefetch
// CHECK: tcu.linear_recurrence
// CHECK: return
func.func @group_prefetch(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 decay 0.9 {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>, walk_schedule = #tcu.walk_schedule<prefetch_tiles = 16>} : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func @register_cap
// CHECK-NOT: tcu.prefetch
// CHECK: } {tcu.max_registers = 56 : i64
// PTX: .maxnreg 56
func.func @register_cap(%in: memref<?xf16>, %out: memref<?xf32>, %s: index) {
  tcu.segmented_scan <add> inclusive %in into %out segment_size %s decay 0.9 {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>, walk_schedule = #tcu.walk_schedule<max_registers = 56>} : memref<?xf16> -> memref<?xf32>
  return
}
