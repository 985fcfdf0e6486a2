//===- LaggedLookbackOps.cpp - the lagged scan's look-back on the GPU -----===//
//
// The lagged scan's block step (tcu.block_lagged_lookback) and its early
// read (tcu.lagged_prefix): a block publishes the aggregate of the chunk
// it reduced, completes the chain's kept Fenwick words, and looks back for
// the chunk it scans, all around one block barrier (FenwickChain.h).
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
using namespace mlir::tcu::lookback_word;

namespace {

/// How far back the lagged scan's Fenwick words reach for aggregates, in
/// aggregates a lane: a word covering more than 32 * kLaggedRounds
/// positions takes its last 32 * kLaggedRounds from the aggregates and the
/// rest from children that far back or further, all read in one round trip.
/// (Why not neighbours' words, and why 4: docs/rationale.md.)
constexpr int64_t kLaggedRounds = 4;

/// tcu.block_lagged_lookback: both values of every warp meet at one block
/// barrier (the scanned chunk's through lowerBlockPrefix, the reduced
/// chunk's stored just before it); warp 0 publishes the reduced item's
/// aggregate (a store, no wait) and looks back for item `item` if
/// `looks_back`, while the last warp completes the Fenwick word of item
/// complete_item if `completes` and the item ends a group of kLaggedGroup
/// (the only words kept: a prefix reads the aggregates of its own group,
/// FenwickItem::laggedPrefix); the block meets again before every warp
/// reads the prefix (buffer[offset + 2 W]). The completion overlaps the
/// look-back so that the block's two round trips to L2 overlap
/// (docs/rationale.md).
/// With `given` words (tcu.lagged_prefix, read by warp 0 before the block
/// met), warp 0 leaves their sum and whether all were published beside the
/// totals before the barrier; where they were, the block does not meet
/// again (a uniform branch).
struct LowerBlockLaggedLookback : OpConversionPattern<BlockLaggedLookbackOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLaggedLookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    WarpBuilder h{rewriter, loc};
    Value buffer = adaptor.getBuffer(), offset = adaptor.getOffset(),
          warp = adaptor.getWarp(), state = adaptor.getState();
    int64_t warps = op.getWarps();
    Type t = op.getScanValue().getType();
    auto slot = [&](Value i) -> Value {
      return arith::AddIOp::create(rewriter, loc, offset, i);
    };
    memref::StoreOp::create(
        rewriter, loc, adaptor.getReduceValue(), buffer,
        slot(arith::AddIOp::create(rewriter, loc, h.index(warps), warp)));
    Value prefixSlot = slot(h.index(2 * warps));
    Value given = adaptor.getGivenWords();
    auto inFirstWarp = [&](function_ref<void()> body) {
      auto ifOp = scf::IfOp::create(
          rewriter, loc, h.cmp(arith::CmpIPredicate::eq, warp, h.index(0)));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      body();
    };
    // Warp 0 read the look-back's words before the block met
    // (tcu.lagged_prefix): it leaves their sum and whether all were
    // published beside the totals, and where they were, the block meets
    // once.
    Value readySlot = slot(h.index(2 * warps + 1));
    if (given)
      inFirstWarp([&] {
        Value ready = arith::XOrIOp::create(
            rewriter, loc, anyPending(rewriter, loc, given),
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getBoolAttr(true)));
        memref::StoreOp::create(
            rewriter, loc, warpSum(h, buildWordValue(rewriter, loc, given, t)),
            buffer, prefixSlot);
        memref::StoreOp::create(
            rewriter, loc,
            arith::SelectOp::create(rewriter, loc, ready,
                                    arith::ConstantOp::create(
                                        rewriter, loc, rewriter.getOneAttr(t)),
                                    h.zero(t)),
            buffer, readySlot);
      });
    Value prefix = lowerBlockPrefix(
        rewriter, loc, adaptor.getScanValue(), buffer, offset, warp, warps,
        [&] { gpu::BarrierOp::create(rewriter, loc); });
    // The completion (its loads rarely wait: the words it reads were
    // published at least E tickets ago) runs in the last warp while warp 0
    // looks back, so the block's two round trips to L2 overlap; with one
    // warp, warp 0 completes after its look-back. Only the items that end
    // a group have a word to complete.
    auto completeInWarp = [&](int64_t w) {
      Value endsGroup =
          FenwickItem(rewriter, loc, state, adaptor.getCompleteItem(),
                      adaptor.getCompleteFirst(), t, 2)
              .endsGroup();
      auto complete = scf::IfOp::create(
          rewriter, loc,
          arith::AndIOp::create(
              rewriter, loc,
              arith::AndIOp::create(rewriter, loc, adaptor.getCompletes(),
                                    endsGroup),
              h.cmp(arith::CmpIPredicate::eq, warp, h.index(w))));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(complete.thenBlock());
      FenwickItem(rewriter, loc, state, adaptor.getCompleteItem(),
                  adaptor.getCompleteFirst(), t, 2)
          .complete(kLaggedRounds);
    };
    // The reduced item's aggregate: the warps' values in warp order.
    auto publish = [&] {
      auto ifOp = scf::IfOp::create(rewriter, loc, adaptor.getPublishes());
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      Value aggregate;
      for (int64_t w = 0; w < warps; ++w) {
        Value v = memref::LoadOp::create(rewriter, loc, buffer,
                                         slot(h.index(warps + w)));
        aggregate = aggregate ? h.add(aggregate, v) : v;
      }
      FenwickItem(rewriter, loc, state, adaptor.getPublishItem(),
                  adaptor.getPublishFirst(), t, 2)
          .publishAggregate(aggregate);
    };
    if (warps > 1)
      completeInWarp(warps - 1);
    // Warp 0 publishes and looks back; the block meets again to share the
    // prefix.
    auto lookBackLate = [&]() -> Value {
      return shareFromFirstWarp(
          rewriter, loc, warp, buffer, prefixSlot, [&]() -> Value {
            publish();
            auto look = scf::IfOp::create(
                rewriter, loc, adaptor.getLooksBack(),
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l,
                                       FenwickItem(b, l, state,
                                                   adaptor.getItem(),
                                                   adaptor.getFirst(), t, 2)
                                           .laggedPrefix());
                },
                [&](OpBuilder &b, Location l) {
                  scf::YieldOp::create(b, l, WarpBuilder{b, l}.zero(t));
                });
            return look.getResult(0);
          });
    };
    Value chunkPrefix;
    if (given) {
      // The same in every warp: the branch is uniform, and so is its
      // barrier.
      Value ready = memref::LoadOp::create(rewriter, loc, buffer, readySlot);
      auto ifOp = scf::IfOp::create(
          rewriter, loc, TypeRange{t},
          isa<FloatType>(t)
              ? arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ONE,
                                      ready, h.zero(t))
                    .getResult()
              : h.cmp(arith::CmpIPredicate::ne, ready, h.zero(t)),
          /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        inFirstWarp(publish);
        scf::YieldOp::create(rewriter, loc,
                             ValueRange{memref::LoadOp::create(
                                 rewriter, loc, buffer, prefixSlot)});
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(rewriter, loc, ValueRange{lookBackLate()});
      }
      chunkPrefix = ifOp.getResult(0);
    } else {
      chunkPrefix = lookBackLate();
    }
    if (warps == 1)
      completeInWarp(0);
    rewriter.replaceOp(op, {prefix, chunkPrefix});
    return success();
  }
};

/// tcu.lagged_prefix: the look-back of tcu.block_lagged_lookback, in the
/// warp that runs it.
struct LowerLaggedPrefix : OpConversionPattern<LaggedPrefixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LaggedPrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto look = scf::IfOp::create(
        rewriter, op.getLoc(), adaptor.getLooksBack(),
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l,
                               FenwickItem(b, l, adaptor.getState(),
                                           adaptor.getItem(),
                                           adaptor.getFirst(), Type(), 2)
                                   .laggedWord());
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, buildWordConstant(b, l, kPublishedZero));
        });
    rewriter.replaceOp(op, look.getResults());
    return success();
  }
};

} // namespace

void gpu_lowering::populateLaggedLookbackPatterns(const TypeConverter &types,
                                                  RewritePatternSet &patterns) {
  patterns.add<LowerBlockLaggedLookback, LowerLaggedPrefix>(
      types, patterns.getContext());
}
