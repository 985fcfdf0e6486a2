// tcu-select-strategy on reverse scans: every variant takes `reverse`, so
// the cost model chooses as for the forward scan of the size, and the
// choice keeps `reverse` (and a single-pass scan its schedule).
// RUN: tcuc-opt %s --tcu-select-strategy="chip=sm_90" | FileCheck %s
// RUN: tcuc-opt %s --tcu-select-strategy="chip=sm_90" --convert-tcu-to-mma | FileCheck %s --check-prefix=MMA

// CHECK-LABEL: func @short
// CHECK: tcu.segmented_scan <add> inclusive reverse %{{.*}} segment_size 256 {tiles_per_warp = {{[0-9]}} : i64, variant = #tcu.variant<
// MMA-LABEL: func @short
// MMA: tcu.load_tile {{.*}} mirror
func.func @short(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 256 : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: func @long
// CHECK: tcu.segmented_scan <add> exclusive reverse %{{.*}} segment_size 16777216 {schedule = #tcu.chain_schedule<{{.*}}>, {{.*}}variant = #tcu.variant<lagged>
// MMA-LABEL: func @long
// MMA: tcu.load_tile {{.*}} mirror
func.func @long(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> exclusive reverse %in into %out segment_size 16777216 : memref<?xf16> -> memref<?xf32>
  return
}
