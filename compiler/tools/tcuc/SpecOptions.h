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
/// The same, for segments from offsets when `offsets` (tcuc run --offsets)
/// or --offset-type says so: spec.offsetBits set, --segment refused.
bool parseSpecOptions(KernelSpec &spec, bool offsets, std::string &error);
} // namespace tcuc::driver

#endif // TCUC_TOOLS_TCUC_SPECOPTIONS_H
