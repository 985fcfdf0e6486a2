//===- Pipelines.h - tcuc pass pipelines ------------------------*- C++ -*-===//

#ifndef TCUC_PIPELINES_PIPELINES_H
#define TCUC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::tcu {
struct StrategyChoice;

/// tcu collectives -> mma form -> CPU vector code -> LLVM dialect, ready for
/// the ExecutionEngine or mlir-runner. Functions keep a C interface
/// (`_mlir_ciface_<name>`) when they carry `llvm.emit_c_interface`.
/// `selectStrategy = false` leaves out the first step, tcu-select-strategy
/// (for a module runStrategyStep has already been through).
void buildTCUToCPUPipeline(OpPassManager &pm, bool selectStrategy = true);

/// Options of the tcu-to-ptx pipeline.
struct TCUToPTXOptions : PassPipelineOptions<TCUToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture: sm_80 or newer "
                                          "(sm_86, sm_90, sm_120, ...)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> gpu{
      *this, "gpu",
      llvm::cl::desc("GPU model (h100, h200, ...) whose tuned rows come "
                     "before the architecture's"),
      llvm::cl::init("")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA feature (sm_90 needs +ptx78 or newer; from "
                     "sm_100 on, unset, the chip's minimum)"),
      llvm::cl::init("+ptx80")};
  Option<bool> hostLaunch{
      *this, "host-launch",
      llvm::cl::desc("Keep each host function, launching its kernels with "
                     "gpu.launch_func (upstream's host lowering runs it) "
                     "instead of leaving a launch plan for the tcuc runtime"),
      llvm::cl::init(false)};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block"),
                            llvm::cl::init(128)};
};

/// tcu collectives -> mma form -> GPU kernels on mma.sync -> NVVM -> PTX:
/// each function becomes a `gpu.binary @<name>_kernels` whose object is the
/// PTX text, with the launch plan left on the gpu.module beforehand (see
/// tcu-outline-kernels; tcuc::compileKernelFile keeps it).
void buildTCUToPTXPipeline(OpPassManager &pm, const TCUToPTXOptions &options);
/// Its two halves: tcu -> GPU kernels (launch plan on each gpu.module), and
/// GPU kernels -> PTX.
void buildTCUToGPUKernelsPipeline(OpPassManager &pm,
                                  const TCUToPTXOptions &options,
                                  bool selectStrategy = true);
void buildGPUKernelsToPTXPipeline(OpPassManager &pm,
                                  const TCUToPTXOptions &options);

/// The first step of tcu-to-ptx (`gpu` set) or of tcu-to-cpu (null),
/// tcu-select-strategy as each runs it, run on `module` alone; `chosen` is
/// then the strategy of its one collective (tcu::getChosenStrategy).
/// Fails when the pass fails or there is not exactly one collective. A
/// driver that reports what runs calls this, then the pipeline with
/// `selectStrategy = false`.
LogicalResult runStrategyStep(ModuleOp module, const TCUToPTXOptions *gpu,
                              StrategyChoice &chosen);

/// Registers the pipelines above with the pass registry (`--tcu-to-cpu`).
void registerTCUCPipelines();
} // namespace mlir::tcu

#endif // TCUC_PIPELINES_PIPELINES_H
