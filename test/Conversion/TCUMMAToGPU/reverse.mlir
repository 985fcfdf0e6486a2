// Reverse scans on the GPU: mirrored tile accesses in the fixed order move
// element by element (predicated scalar loads and stores at m - x, masked
// where that leaves the buffer), never in a tile run; in the lanes order
// (decayed scans) whole tiles move as aligned vectors; the scratch and the
// rest of the kernel are the forward scan's.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels --tcu-prefetch-chunks --tcu-transpose-mma-operands --convert-tcu-mma-to-gpu | FileCheck %s
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_90" | FileCheck %s --check-prefix=PTX

// The work items are those of n' = ceil(n / 1000) * 1000 elements.
// CHECK-LABEL: gpu.module @seg256n_kernels
// CHECK-SAME: tcuc.items = ["n 1000 divu n 1000 remu 0 ne add
// CHECK: gpu.func @seg256n_k0(%[[IN:.*]]: memref<?xf16>, %[[OUT:.*]]: memref<?xf32>) kernel
// CHECK-NOT: vector.load %[[IN]]
// CHECK: scf.for
// CHECK: %[[SIZE:.*]] = memref.dim %[[IN]]
// CHECK: %[[P:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.cmpi ult, %[[P]], %[[SIZE]]
// CHECK: scf.if %{{.*}} -> (f16)
// CHECK: memref.load %[[IN]][%[[P]]]
// CHECK-NOT: vector.load %[[IN]]
// CHECK-NOT: vector.store %{{.*}}, %[[OUT]]
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: vector.load %[[IN]]
// CHECK-NOT: vector.store %{{.*}}, %[[OUT]]
// CHECK: gpu.return
// PTX: gpu.binary @seg256n_kernels
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @seg256n(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 1000 {variant = #tcu.variant<seg256n>, tiles_per_warp = 2 : i64} : memref<?xf16> -> memref<?xf32>
  return
}

// The offsets' heads read mirrored: n - off[K - i], K the last index.
// CHECK-LABEL: gpu.module @offsets_kernels
// CHECK: gpu.func @offsets_k0
// CHECK: memref.dim %{{.*}} : memref<?xi64>
// PTX: gpu.binary @offsets_kernels
func.func @offsets(%in: memref<?xbf16>, %out: memref<?xbf16>, %off: memref<?xi64>) {
  tcu.segmented_scan <add> exclusive reverse %in into %out offsets %off : memref<?xbf16>, memref<?xi64> -> memref<?xbf16>
  return
}

// A decayed scan's tiles are in the lanes order: a lane's eight slots are
// eight consecutive elements backwards. The packed tiles start below their
// group at the phase (the input's aligned address in elements + n') mod 8,
// so that a lane whose elements are all in range moves them as one aligned
// 16-byte vector, reversed in registers (the branch hinted likely); other
// lanes go element by element.
// CHECK-LABEL: gpu.module @decayed_kernels
// CHECK: gpu.func @decayed_k0(%[[DIN:.*]]: memref<?xf16>, %[[DOUT:.*]]: memref<?xf16>) kernel
// CHECK: memref.extract_aligned_pointer_as_index %[[DIN]]
// CHECK: arith.andi %{{.*}}, %c7
// CHECK: scf.for
// CHECK: %[[LOAD:.*]] = llvm.intr.expect %{{.*}}, %true
// CHECK: scf.if %[[LOAD]]
// CHECK-NEXT: %[[OWN:.*]] = vector.load %[[DIN]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-NEXT: vector.shuffle %[[OWN]], %[[OWN]] [7, 6, 5, 4, 3, 2, 1, 0]
// CHECK-COUNT-8: memref.load %[[DIN]]
// CHECK: memref.extract_aligned_pointer_as_index %[[DOUT]]
// CHECK: %[[STORE:.*]] = llvm.intr.expect %{{.*}}, %true
// CHECK: scf.if %[[STORE]]
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [7, 6, 5, 4, 3, 2, 1, 0]
// CHECK-NEXT: vector.store %{{.*}}, %[[DOUT]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16>, vector<8xf16>
// CHECK-COUNT-8: memref.store %{{.*}}, %[[DOUT]]
// CHECK: gpu.return
// PTX: gpu.binary @decayed_kernels
func.func @decayed(%in: memref<?xf16>, %out: memref<?xf16>) {
  tcu.segmented_scan <add> inclusive reverse %in into %out segment_size 100 decay 0.9 {variant = #tcu.variant<packed>, decay_form = #tcu.decay_form<recurrence>} : memref<?xf16> -> memref<?xf16>
  return
}
