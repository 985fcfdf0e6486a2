//===- embed-opt.cpp - an outside tool with tcuc in its pipelines ---------===//
//
// What an ML compiler that embeds tcuc does: register tcuc's dialects and
// passes next to its own, and build pipelines that put tcu-raise-linalg and
// tcuc's GPU (or CPU) lowering between its own stages. Two pipelines:
//
//   --embed-to-ptx   linalg on tensors -> tcu -> buffers -> PTX (mma.sync)
//   --embed-to-cpu   the same front end, lowered for the CPU (mlir-runner)
//
// and --embed-reference-to-cpu, the same program without tcu (upstream
// linalg loops), the reference the CPU result is checked against.
//
//===----------------------------------------------------------------------===//

#include "tcuc/InitAll.h"
#include "tcuc/Pipelines/Pipelines.h"
#include "tcuc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
struct EmbedToPTXOptions : PassPipelineOptions<EmbedToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture: sm_80 or sm_90"),
                           llvm::cl::init("sm_90")};
};

/// Tensors to buffers: function arguments become identity-layout memrefs
/// (what tcu's kernel programs take), results are written in place.
void addBufferization(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  pm.addPass(createCanonicalizerPass());
}

/// The front end of this "compiler": tcuc's raise pass, then bufferization.
void addFrontEnd(OpPassManager &pm, bool raise) {
  if (raise)
    pm.addPass(tcu::createTCURaiseLinalg());
  addBufferization(pm);
}

void buildEmbedToPTX(OpPassManager &pm, const EmbedToPTXOptions &options) {
  addFrontEnd(pm, /*raise=*/true);
  tcu::TCUToPTXOptions ptx;
  ptx.chip = options.chip.getValue();
  tcu::buildTCUToPTXPipeline(pm, ptx);
}

void buildEmbedToCPU(OpPassManager &pm, bool raise) {
  addFrontEnd(pm, raise);
  // What was not raised (the test's input set-up) stays linalg: loops.
  pm.addPass(createConvertLinalgToLoopsPass());
  tcu::buildTCUToCPUPipeline(pm);
}
} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  tcu::registerTCUCDialects(registry);
  tcu::registerTCUCPasses();

  PassPipelineRegistration<EmbedToPTXOptions>(
      "embed-to-ptx",
      "linalg sums on tensors -> tcu -> one-shot-bufferize -> PTX",
      buildEmbedToPTX);
  PassPipelineRegistration<>(
      "embed-to-cpu", "linalg sums on tensors -> tcu -> CPU (LLVM dialect)",
      [](OpPassManager &pm) { buildEmbedToCPU(pm, /*raise=*/true); });
  PassPipelineRegistration<>(
      "embed-reference-to-cpu",
      "the same without tcu: linalg loops -> CPU (LLVM dialect)",
      [](OpPassManager &pm) { buildEmbedToCPU(pm, /*raise=*/false); });

  return asMainReturnCode(MlirOptMain(
      argc, argv, "embed-opt: an outside tool embedding tcuc\n", registry));
}
