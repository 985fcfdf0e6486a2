//===- KernelSpec.h - what one tcuc kernel computes -------------*- C++ -*-===//

#ifndef TCUC_CPU_KERNELSPEC_H
#define TCUC_CPU_KERNELSPEC_H

#include "tcuc/Reference/Reference.h"

#include <cstdint>
#include <string>

namespace tcuc {
/// One segmented collective: the unit tcuc compiles, caches and runs.
struct KernelSpec {
  bool isScan = false;
  int64_t segmentSize = 16;
  ref::DType input = ref::DType::F16;
  ref::DType output = ref::DType::F32;
  bool inclusive = true;
  /// A `#tcu.variant` name ("seg256n", ...); empty for the default.
  std::string variant;
};

/// The MLIR source of `spec` as one function
/// `@tcuc_kernel(%in: memref<?xT>, %out: memref<?xO>)` with a C interface.
std::string buildKernelSource(const KernelSpec &spec);
} // namespace tcuc

#endif // TCUC_CPU_KERNELSPEC_H
