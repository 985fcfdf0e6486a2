//===- InitAll.cpp - register tcuc dialects and passes --------------------===//

#include "tcuc/InitAll.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/BufferizableOpInterfaceImpl.h"
#include "tcuc/Dialect/TCU/TCUDialect.h"
#include "tcuc/Pipelines/Pipelines.h"
#include "tcuc/Strategy/Passes.h"
#include "tcuc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/Passes.h"

void mlir::tcu::registerTCUCDialects(DialectRegistry &registry) {
  registerTCUCKernelDialects(registry);
  // Tensor pipelines: linalg in (tcu-raise-linalg), the tensor forms
  // bufferized (one-shot-bufferize).
  registry.insert<bufferization::BufferizationDialect, linalg::LinalgDialect,
                  tensor::TensorDialect>();
  tcu::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::tcu::registerTCUCPasses() {
  tcu::registerTCUCConversionPasses();
  tcu::registerTCUCStrategyPasses();
  tcu::registerTCUCTransformsPasses();
  tcu::registerTCUCPipelines();
  // What a tensor pipeline runs around tcu-raise-linalg: one-shot-bufferize
  // and the buffer cleanups, convert-linalg-to-loops for what stays linalg.
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
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
