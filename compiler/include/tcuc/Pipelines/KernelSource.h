//===- KernelSource.h - the MLIR source of a kernel spec --------*- C++ -*-===//
//
// Both backends compile a KernelSpec from this one function, then run their
// pipeline (tcu-to-cpu or tcu-to-ptx) on it.
//

#ifndef TCUC_PIPELINES_KERNELSOURCE_H
#define TCUC_PIPELINES_KERNELSOURCE_H

#include "tcuc/Spec.h"

#include <cstdint>
#include <string>

namespace tcuc {
/// The MLIR source of `spec` as one function
/// `@tcuc_kernel(%in: memref<?xT>, %out: memref<?xO>)` with a C interface.
std::string buildKernelSource(const KernelSpec &spec);
} // namespace tcuc

#endif // TCUC_PIPELINES_KERNELSOURCE_H
