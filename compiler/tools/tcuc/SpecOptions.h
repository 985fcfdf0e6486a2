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
/// The variant `spec` runs on `arch`: its own, or the cost model's choice
/// (tcu-select-strategy; the CPU runs what sm_90 would).
std::string variantName(const KernelSpec &spec,
                        const std::string &arch = "sm_90");
} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_SPECOPTIONS_H
