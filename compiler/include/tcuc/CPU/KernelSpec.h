//===- KernelSpec.h - what one tcuc kernel computes -------------*- C++ -*-===//

#ifndef TCUC_CPU_KERNELSPEC_H
#define TCUC_CPU_KERNELSPEC_H

#include "tcuc/Spec.h"

#include <cstdint>
#include <string>

namespace tcuc {
/// The MLIR source of `spec` as one function
/// `@tcuc_kernel(%in: memref<?xT>, %out: memref<?xO>)` with a C interface.
std::string buildKernelSource(const KernelSpec &spec);
} // namespace tcuc

#endif // TCUC_CPU_KERNELSPEC_H
