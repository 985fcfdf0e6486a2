//===- KernelCompiler.h - a kernel spec to a tcuc kernel file ---*- C++ -*-===//
//
// The GPU side of the compiler as one call: a KernelSpec goes through the
// tcu-to-ptx stages and comes out as a kernel file (docs/kernel-file.md),
// the PTX of its kernels behind the launch plan the runtime needs. This is
// the CompileFn the runtime calls on a cache miss in builds with the
// compiler.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_GPU_KERNELCOMPILER_H
#define TCUC_GPU_KERNELCOMPILER_H

#include "tcuc/Spec.h"
#include "tcuc/Status.h"

#include <string>

namespace tcuc {
/// The architectures tcuc emits PTX for.
bool isSupportedArch(const std::string &arch);

/// Compiles `spec` for `arch` ("sm_80" or "sm_90") into `kernelFile`. Errors
/// carry the compiler's diagnostics (an invalid spec fails in the verifier).
Status compileKernelFile(const KernelSpec &spec, const std::string &arch,
                         std::string &kernelFile);
} // namespace tcuc

#endif // TCUC_GPU_KERNELCOMPILER_H
