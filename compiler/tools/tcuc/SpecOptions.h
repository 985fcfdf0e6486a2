//===- SpecOptions.h - the kernel-spec flags of run and compile -*- C++ -*-===//

#ifndef TCUC_TOOLS_TCUC_SPECOPTIONS_H
#define TCUC_TOOLS_TCUC_SPECOPTIONS_H

#include "tcuc/Spec.h"

#include <string>

namespace tcuc::driver {
/// Fills `spec` from --op, --segment, --dtype, --out-dtype, --exclusive and
/// --variant (shared by `tcuc run` and `tcuc compile`). Type combinations
/// are left to the op verifier, the one home of those rules.
bool parseSpecOptions(KernelSpec &spec, std::string &error);
/// The variant and tiles per warp `spec` runs with: its own, or the cost
/// model's choice as tcu-select-strategy makes it for `arch` (the CPU runs
/// sm_90's variant, and 1 tile per warp unless the spec gives some).
void chosenStrategy(const KernelSpec &spec, const std::string &arch, bool gpu,
                    std::string &variant, int64_t &tilesPerWarp,
                    int64_t &warpsPerBlock);
} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_SPECOPTIONS_H
