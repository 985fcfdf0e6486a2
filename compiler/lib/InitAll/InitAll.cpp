//===- InitAll.cpp - register tcuc dialects and passes --------------------===//

#include "tcuc/InitAll.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::tcu::registerTCUCDialects(DialectRegistry &registry) {
  registry.insert<tcu::TCUDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, nvgpu::NVGPUDialect,
                  NVVM::NVVMDialect, scf::SCFDialect, vector::VectorDialect>();
}

void mlir::tcu::registerTCUCPasses() {
  tcu::registerTCUCConversionPasses();
  tcu::registerTCUCPipelines();
  // Generic cleanups (canonicalize, cse, ...) used between tcuc's stages.
  registerTransformsPasses();
  // The upstream stages of the tcu-to-cpu pipeline, to run them one by one.
  registerSCFToControlFlowPass();
  registerConvertVectorToLLVMPass();
  memref::registerExpandStridedMetadataPass();
  registerFinalizeMemRefToLLVMConversionPass();
  registerArithToLLVMConversionPass();
  registerConvertFuncToLLVMPass();
  registerConvertControlFlowToLLVMPass();
  registerUBToLLVMConversionPass();
  registerReconcileUnrealizedCastsPass();
}
