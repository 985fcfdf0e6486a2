//===- Ptxas.h - cubins for kernel files ------------------------*- C++ -*-===//
//
// `tcuc library` and `tcuc compile --cubin` put a cubin (SASS for the
// kernel file's arch) beside a kernel file, which the runtime loads instead
// of JIT-compiling the PTX (docs/runtime.md "The kernel library").
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_TOOLS_TCUC_PTXAS_H
#define TCUC_TOOLS_TCUC_PTXAS_H

#include "tcuc/Status.h"

#include <string>

namespace tcuc::driver {

/// The ptxas `--ptxas` names (one flag of `tcuc compile` and `tcuc
/// library`; 'none': empty, for no cubins), else ptxas on PATH, in
/// $CUDA_HOME/bin or /usr/local/cuda/bin; empty when none is found. An
/// error when the one given cannot be executed.
Status findPtxas(std::string &ptxas);

/// Assembles the kernel file `text` (PTX behind comment lines) for the
/// target `target` (sm_XX[:MODEL]: the arch part) into `cubin`.
Status assemble(const std::string &ptxas, const std::string &target,
                const std::string &text, std::string &cubin);

} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_PTXAS_H
