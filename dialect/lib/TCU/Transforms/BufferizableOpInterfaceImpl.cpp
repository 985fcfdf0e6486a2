//===- BufferizableOpInterfaceImpl.cpp - bufferize tcu tensor ops ---------===//
//
// tcu.reduce / tcu.scan are destination style: the result is the init's
// buffer, written in place. Unlike linalg, the init is not read (every
// element is overwritten), so a tensor.empty init costs no copy. The buffer
// forms need unit stride; a buffer whose layout does not promise it (a
// function argument bufferized with a fully dynamic layout, say) goes
// through a contiguous copy.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Dialect/TCU/BufferizableOpInterfaceImpl.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// `buffer` itself when its layout has unit stride; otherwise a new
/// contiguous buffer of the same shape, holding a copy of it when
/// `copyIn`.
FailureOr<Value> contiguous(RewriterBase &rewriter, Location loc, Value buffer,
                            bool copyIn, const BufferizationOptions &options) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.isLastDimUnitStride())
    return buffer;
  auto flat =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  SmallVector<Value> sizes;
  if (type.isDynamicDim(0))
    sizes.push_back(memref::DimOp::create(rewriter, loc, buffer, 0));
  FailureOr<Value> alloc = options.createAlloc(rewriter, loc, flat, sizes);
  if (failed(alloc))
    return failure();
  if (copyIn && failed(options.createMemCpy(rewriter, loc, buffer, *alloc)))
    return failure();
  return *alloc;
}

template <typename OpTy, typename BufferOpTy>
struct TensorCollectiveInterface
    : DstBufferizableOpInterfaceExternalModel<
          TensorCollectiveInterface<OpTy, BufferOpTy>, OpTy> {
  // The init is only written.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto tensorOp = cast<OpTy>(op);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    FailureOr<Value> input =
        getBuffer(rewriter, tensorOp.getInput(), options, state);
    FailureOr<Value> init =
        getBuffer(rewriter, tensorOp.getInit(), options, state);
    if (failed(input) || failed(init))
      return failure();
    FailureOr<Value> in = contiguous(rewriter, loc, *input, true, options);
    FailureOr<Value> out = contiguous(rewriter, loc, *init, false, options);
    if (failed(in) || failed(out))
      return failure();
    SmallVector<Value> operands = {*in, *out};
    Value size = tensorOp.getDynamicSegmentSize();
    if (size)
      operands.push_back(size); // a runtime segment size passes through
    if (Value offsets = tensorOp.getOffsets()) {
      FailureOr<Value> buffer = getBuffer(rewriter, offsets, options, state);
      if (failed(buffer))
        return failure();
      FailureOr<Value> off = contiguous(rewriter, loc, *buffer, true, options);
      if (failed(off))
        return failure();
      operands.push_back(*off);
    }
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : op->getAttrs())
      if (a.getName() != "operandSegmentSizes")
        attrs.push_back(a);
    auto bufferOp =
        BufferOpTy::create(rewriter, loc, TypeRange{}, operands, attrs);
    // input, output, the runtime size, the offsets: as the tensor op.
    bufferOp.getProperties().operandSegmentSizes = {
        1, 1, size ? 1 : 0, tensorOp.getOffsets() ? 1 : 0};
    if (*out != *init &&
        failed(options.createMemCpy(rewriter, loc, *out, *init)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void mlir::tcu::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TCUDialect *) {
    ReduceOp::attachInterface<
        TensorCollectiveInterface<ReduceOp, SegmentedReduceOp>>(*ctx);
    ScanOp::attachInterface<TensorCollectiveInterface<ScanOp, SegmentedScanOp>>(
        *ctx);
  });
}
