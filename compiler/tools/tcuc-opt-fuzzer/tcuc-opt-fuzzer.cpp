//===- tcuc-opt-fuzzer.cpp - libFuzzer target: parse, verify, lower -------===//
//
// Each input is MLIR source text. It is parsed with every dialect tcuc-opt
// registers, verified, and, when valid, lowered twice: through the CPU
// pipeline (tcu -> loops -> LLVM dialect) and through the GPU kernel
// pipeline (tcu -> gpu.module with NVVM ops; no PTX serialization, which
// would only exercise LLVM's NVPTX backend). Errors are expected and
// silenced; a crash, an assertion (tcuc builds with assertions on), a
// sanitizer report or a timeout is a bug. scripts/fuzz.sh builds and runs it
// (docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#include "tcuc/InitAll.h"
#include "tcuc/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

namespace {

/// One context for the whole run: registering every dialect per input would
/// dominate the time. Each input's module is destroyed after use.
MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    tcu::registerTCUCDialects(registry);
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->loadAllAvailableDialects();
    // Unregistered ops would make every pass bail out early: reject them.
    c->allowUnregisteredDialects(false);
    return c;
  }();
  return *ctx;
}

void lower(ModuleOp module,
           llvm::function_ref<void(OpPassManager &)> buildPipeline) {
  OwningOpRef<ModuleOp> copy(module.clone());
  PassManager pm(&context());
  buildPipeline(pm);
  (void)pm.run(*copy);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = context();
  // Diagnostics are the expected outcome of most inputs: drop them.
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module || failed(verify(*module)))
    return 0;
  lower(*module, [](OpPassManager &pm) { tcu::buildTCUToCPUPipeline(pm); });
  lower(*module, [](OpPassManager &pm) {
    tcu::buildTCUToGPUKernelsPipeline(pm, tcu::TCUToPTXOptions());
  });
  return 0;
}
