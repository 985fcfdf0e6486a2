//===- Pipelines.cpp - tcuc pass pipelines --------------------------------===//

#include "tcuc/Pipelines/Pipelines.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Spec.h"
#include "tcuc/Strategy/CostModel.h"
#include "tcuc/Strategy/Passes.h"
#include "tcuc/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tcu;

/// tcu-select-strategy as tcu-to-ptx (`gpu` set) or tcu-to-cpu runs it.
static void addStrategyPass(OpPassManager &pm, const TCUToPTXOptions *gpu) {
  TCUSelectStrategyOptions strategy;
  if (gpu) {
    strategy.chip = gpu->chip;
    strategy.gpu = gpu->gpu;
  } else {
    // The variants the GPU (sm_90) would run, so a CPU run reproduces a
    // GPU run's arithmetic. Not its tiles per warp: they leave the
    // arithmetic as it is (the products are added in the same order), gain
    // the CPU nothing, and unrolled loops compile several times slower here.
    strategy.chooseTiles = false;
  }
  pm.addPass(createTCUSelectStrategy(strategy));
}

LogicalResult mlir::tcu::runStrategyStep(ModuleOp module,
                                         const TCUToPTXOptions *gpu,
                                         StrategyChoice &chosen) {
  PassManager pm(module.getContext());
  addStrategyPass(pm, gpu);
  if (failed(pm.run(module)))
    return failure();
  std::optional<StrategyChoice> choice = getChosenStrategy(module);
  if (!choice)
    return failure();
  chosen = *choice;
  return success();
}

void mlir::tcu::buildTCUToCPUPipeline(OpPassManager &pm, bool selectStrategy) {
  if (selectStrategy)
    addStrategyPass(pm, nullptr);
  // Repeated collectives are lowered (and compiled by LLVM) once.
  pm.addPass(createTCUShareCollectives());
  pm.addPass(createConvertTCUToMMA());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createConvertTCUMMAToLoops());
  pm.addPass(createCanonicalizerPass());
  // x86 has no bf16 conversions: expand them to integer bit operations.
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tcu::buildTCUToGPUKernelsPipeline(OpPassManager &pm,
                                             const TCUToPTXOptions &options,
                                             bool selectStrategy) {
  if (selectStrategy)
    addStrategyPass(pm, &options);
  pm.addPass(createConvertTCUToMMA());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TCUOutlineKernelsOptions outline;
  outline.blockSize = options.blockSize;
  outline.hostLaunch = options.hostLaunch;
  // griddepcontrol is sm_90's; chips are "sm_NN".
  StringRef chip = options.chip;
  unsigned version = 0;
  outline.dependentLaunch = chip.consume_front("sm_") &&
                            !chip.getAsInteger(10, version) && version >= 90;
  pm.addPass(createTCUOutlineKernels(outline));
  pm.addPass(createTCUPrefetchChunks());
  pm.addPass(createTCUTransposeMMAOperands());
  pm.addPass(createConvertTCUMMAToGPU());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tcu::buildGPUKernelsToPTXPipeline(OpPassManager &pm,
                                             const TCUToPTXOptions &options) {
  // The upstream NVVM pipeline: gpu/scf/vector/memref -> NVVM, attach the
  // target, serialize each gpu.module to PTX text (format `isa`).
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  // The default PTX ISA (8.0) predates Blackwell: from sm_100 on, unless
  // asked for another, the chip's own minimum (LLVM's default for it).
  StringRef chip = options.chip;
  unsigned version = 0;
  if (!options.features.hasValue() && chip.consume_front("sm_") &&
      !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
      version >= 100)
    nvvm.cubinFeatures = "";
  nvvm.cubinFormat = "isa";
  nvvm.optLevel = 3;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void mlir::tcu::buildTCUToPTXPipeline(OpPassManager &pm,
                                      const TCUToPTXOptions &options) {
  buildTCUToGPUKernelsPipeline(pm, options);
  buildGPUKernelsToPTXPipeline(pm, options);
}

void mlir::tcu::registerTCUCPipelines() {
  // Registered by hand so that a chip the kernels cannot run on is an
  // error of the pipeline, not an abort in LLVM's instruction selection.
  registerPassPipeline(
      "tcu-to-ptx",
      "Lower tcu collectives through the mma form to GPU kernels and PTX "
      "(a gpu.binary per function holding the PTX text)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        TCUToPTXOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string why;
        if (tcuc::kernelArchFor(options.chip, &why).empty())
          return errorHandler("tcu-to-ptx: chip=" + options.chip + ": " + why);
        buildTCUToPTXPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(TCUToPTXOptions());
      });
  PassPipelineRegistration<>(
      "tcu-to-cpu",
      "Lower tcu collectives through the mma form to LLVM for the CPU",
      [](OpPassManager &pm) { buildTCUToCPUPipeline(pm); });
}
