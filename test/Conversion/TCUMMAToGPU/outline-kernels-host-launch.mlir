// RUN: tcuc-opt %s --tcu-outline-kernels="host-launch=true" | FileCheck %s

// tcu-outline-kernels{host-launch}: the kernels are outlined as without it,
// and the host function stays, launching them itself: each work-item loop
// becomes a gpu.launch_func of one warp an item (at least one block, at most
// 2^20), top-level scratch a device allocation (async, waited for at once),
// its dealloc a device free. Arguments of any rank are passed as they are.

// CHECK-LABEL: gpu.module @host_rows_kernels
// CHECK: gpu.func @host_rows_k0(%{{.*}}: memref<4x1000xf16>, %{{.*}}: memref<?xf32>, %{{.*}}: index, %{{.*}}: memref<?xf32>) kernel
// CHECK: memref.collapse_shape
// CHECK-LABEL: func.func @host_rows(
// CHECK-SAME: %[[IN:.*]]: memref<4x1000xf16>, %[[OUT:.*]]: memref<?xf32>, %[[S:.*]]: index)
// CHECK: %[[ITEMS:.*]] = arith.divui
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[BUF:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[ITEMS]]) : memref<?xf32>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[ITEMS]], %c4
// CHECK: %[[AT_LEAST_ONE:.*]] = arith.maxui %[[BLOCKS]], %c1
// CHECK: %[[GRID:.*]] = arith.minui %[[AT_LEAST_ONE]], %c1048576
// CHECK: gpu.launch_func @host_rows_kernels::@host_rows_k0 blocks in (%[[GRID]], %c1{{.*}}, %c1{{.*}}) threads in (%c128{{.*}}, %c1{{.*}}, %c1{{.*}}) args(%[[IN]] : memref<4x1000xf16>, %[[OUT]] : memref<?xf32>, %[[S]] : index, %[[BUF]] : memref<?xf32>)
// CHECK-NOT: scf.parallel
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[BUF]]
// CHECK: gpu.wait [%[[T3]]]
// CHECK: return
func.func @host_rows(%in: memref<4x1000xf16>, %out: memref<?xf32>, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %flat = memref.collapse_shape %in [[0, 1]] : memref<4x1000xf16> into memref<4000xf16>
  %n = memref.dim %flat, %c0 : memref<4000xf16>
  %segs = arith.divui %n, %s : index
  %partials = memref.alloc(%segs) : memref<?xf32>
  scf.parallel (%w) = (%c0) to (%segs) step (%c1) {
    %base = arith.muli %w, %s : index
    %x = memref.load %flat[%base] : memref<4000xf16>
    %y = arith.extf %x : f16 to f32
    memref.store %y, %partials[%w] : memref<?xf32>
    memref.store %y, %out[%w] : memref<?xf32>
    scf.reduce
  }
  memref.dealloc %partials : memref<?xf32>
  return
}
