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
/// The targets tcuc emits PTX for: sm_80 or sm_90, optionally with the GPU
/// model whose tuned rows come first ("sm_90:h200", tcuc::splitTarget).
bool isSupportedArch(const std::string &target);

/// Compiles `spec` for target `arch` ("sm_80", "sm_90", "sm_90:h200") into
/// `kernelFile`. Errors carry the compiler's diagnostics (an invalid spec
/// fails in the verifier).
Status compileKernelFile(const KernelSpec &spec, const std::string &arch,
                         std::string &kernelFile);
} // namespace tcuc

#endif // TCUC_GPU_KERNELCOMPILER_H
