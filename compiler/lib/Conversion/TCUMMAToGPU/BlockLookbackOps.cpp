//===- BlockLookbackOps.cpp - tcu.block_lookback on the GPU ---------------===//
//
// The look-back scan's block step: the warps' values meet at a block
// barrier, warp 0 publishes the chunk's word and reads its prefix from the
// chain (FenwickChain.h), and the block meets again to share it.
//
//===----------------------------------------------------------------------===//

#include "FenwickChain.h"
#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// The look-back of one warp for item `item` with aggregate `aggregate`:
/// publishes the item's word in the chain from `publish`, then reads its
/// prefix in the chain from `first`. (Waiting for the prefix first would
/// chain every item to the one before: word p - 1 is in every prefix;
/// docs/rationale.md.)
static Value lookBack(OpBuilder &b, Location loc, Value state, Value item,
                      Value first, Value publish, Value aggregate) {
  FenwickItem fenwick(b, loc, state, item, first, aggregate.getType());
  if (publish) {
    FenwickItem(b, loc, state, item, publish, aggregate.getType())
        .publish(aggregate);
  } else {
    fenwick.publish(aggregate);
  }
  return fenwick.prefix();
}

/// tcu.block_lookback: the warps' values meet at a block barrier as in
/// tcu.block_prefix, warp 0 sums them and looks back, and the block meets
/// again before every warp reads the chunk's prefix (buffer[offset + W]).
struct LowerBlockLookback : OpConversionPattern<BlockLookbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    WarpBuilder h{rewriter, loc};
    Value buffer = adaptor.getBuffer(), offset = adaptor.getOffset(),
          warp = adaptor.getWarp();
    int64_t warps = op.getWarps();
    Value total;
    Value prefix = lowerBlockPrefix(
        rewriter, loc, adaptor.getValue(), buffer, offset, warp, warps,
        [&] { gpu::BarrierOp::create(rewriter, loc); }, &total);
    Value slot = arith::AddIOp::create(rewriter, loc, offset, h.index(warps));
    Value chunkPrefix =
        shareFromFirstWarp(rewriter, loc, warp, buffer, slot, [&] {
          return lookBack(rewriter, loc, adaptor.getState(), adaptor.getItem(),
                          adaptor.getFirst(), adaptor.getPublish(), total);
        });
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

} // namespace

void gpu_lowering::populateBlockLookbackPatterns(const TypeConverter &types,
                                                 RewritePatternSet &patterns) {
  patterns.add<LowerBlockLookback>(types, patterns.getContext());
}
