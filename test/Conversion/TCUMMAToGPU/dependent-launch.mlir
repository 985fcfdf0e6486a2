// Programmatic dependent launch (sm_90): with dependent-launch, a plan of
// several kernels starts every kernel by letting the next one be scheduled
// and then waiting for the one before, and the gpu.module says so for the
// runtime; a plan of one kernel is left as it is. Without the option
// nothing changes.
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels="dependent-launch=true" | FileCheck %s
// RUN: tcuc-opt %s --convert-tcu-to-mma --canonicalize --cse --tcu-outline-kernels | FileCheck %s --check-prefix=SERIAL

// CHECK-LABEL: gpu.module @grid_kernels
// CHECK-SAME: tcuc.dependent_launch
// CHECK: gpu.func @grid_k0
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @grid_k1
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// SERIAL-LABEL: gpu.module @grid_kernels
// SERIAL-NOT: tcuc.dependent_launch
// SERIAL-NOT: griddepcontrol
func.func @grid(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 100000 {variant = #tcu.variant<grid>} : memref<?xf16> -> memref<?xf32>
  return
}

// CHECK-LABEL: gpu.module @one_kernel_kernels
// CHECK-NOT: tcuc.dependent_launch
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
func.func @one_kernel(%in: memref<?xf16>, %out: memref<?xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 256 {variant = #tcu.variant<seg256>} : memref<?xf16> -> memref<?xf32>
  return
}
