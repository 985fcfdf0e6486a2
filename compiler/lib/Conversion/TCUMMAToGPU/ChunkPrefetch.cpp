//===- ChunkPrefetch.cpp - issue a loop's tile loads one iteration early --===//
//
// A block scan walks its segment in chunks, one block barrier per chunk
// (tcu.block_prefix). Without prefetching, a block's loads of chunk i + 1
// start only after every warp has passed chunk i's barrier, so DRAM sees
// each block's loads in bursts. tcu-prefetch-chunks moves the loads of the
// loops tcu-outline-kernels marked one iteration ahead: chunk i + 1 is in
// flight while the block scans, waits at the barrier and stores chunk i
// (docs/gpu.md, "Chunk prefetch").
//
//===----------------------------------------------------------------------===//

#include "KernelOutlining.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_TCUPREFETCHCHUNKS
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

/// Adds to `slice`, operands first, the ops of `loop`'s body that compute
/// `v`. Fails when `v` depends on anything but pure ops of the body, the
/// induction variable and values defined above the loop (an iter_arg, a
/// load, a nested region's value).
static bool collectSlice(Value v, scf::ForOp loop,
                         SetVector<Operation *> &slice) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == loop.getBody())
      return arg == loop.getInductionVar();
    return !loop->isAncestor(arg.getOwner()->getParentOp());
  }
  Operation *def = v.getDefiningOp();
  if (!loop->isProperAncestor(def))
    return true;
  if (def->getBlock() != loop.getBody() || !isPure(def) || def->getNumRegions())
    return false;
  if (slice.contains(def))
    return true;
  for (Value operand : def->getOperands())
    if (!collectSlice(operand, loop, slice))
      return false;
  slice.insert(def);
  return true;
}

/// Adds to `written` every buffer an op in `loop` writes. Fails when a
/// write's buffer is unknown (an op that declares no memory effects and is
/// neither a region holder with recursive effects nor a barrier: the
/// block's, or the warp's the outlining puts after each store).
static bool collectWrittenBuffers(scf::ForOp loop,
                                  SmallPtrSetImpl<Value> &written) {
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      bool known = op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
                   isa<gpu::BarrierOp, NVVM::SyncWarpOp>(op);
      return known ? WalkResult::advance() : WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &e : list) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      if (!e.getValue())
        return WalkResult::interrupt();
      written.insert(e.getValue());
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

void gpu_lowering::prefetchChunkLoads(scf::ForOp loop) {
  // A load moves above the stores of the iteration before it: only loads
  // of buffers the loop does not write may (buffers compared as values).
  SmallPtrSet<Value, 4> written;
  if (!collectWrittenBuffers(loop, written))
    return;
  SmallVector<LoadTileOp> loads;
  SetVector<Operation *> slice;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<LoadTileOp>(op);
    if (!load || written.contains(load.getSource()))
      continue;
    SetVector<Operation *> grown = slice;
    if (llvm::all_of(load->getOperands(), [&](Value operand) {
          return collectSlice(operand, loop, grown);
        })) {
      slice = std::move(grown);
      loads.push_back(load);
    }
  }
  if (loads.empty())
    return;

  // The loads (and the index arithmetic they need) of iteration `iv`; an
  // iteration the loop does not run (iv >= ub: the one past the last, or
  // the first of an empty loop) gets limit 0 and reads nothing.
  auto loadsAt = [&](OpBuilder &b, Location loc, Value iv) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    for (Operation *op : slice)
      b.clone(*op, map);
    Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                       loop.getUpperBound());
    Value none = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> tiles;
    for (LoadTileOp load : loads) {
      Value limit = arith::SelectOp::create(
          b, loc, runs, map.lookupOrDefault(load.getLimit()), none);
      auto copy = cast<LoadTileOp>(b.clone(*load, map));
      copy.getLimitMutable().assign(limit);
      tiles.push_back(copy.getResult());
    }
    return tiles;
  };
  OpBuilder before(loop);
  SmallVector<Value> first =
      loadsAt(before, loop.getLoc(), loop.getLowerBound());
  IRRewriter rewriter(loop.getContext());
  // The callback runs before the body moves into the new loop: it issues
  // the next iteration's loads at the top of the body and makes the
  // current iteration's uses read the carried tiles.
  FailureOr<LoopLikeOpInterface> pipelined = loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location loc, ArrayRef<BlockArgument> carried) {
        OpBuilder top = OpBuilder::atBlockBegin(loop.getBody());
        Value next = arith::AddIOp::create(top, loc, loop.getInductionVar(),
                                           loop.getStep());
        SmallVector<Value> tiles = loadsAt(top, loc, next);
        for (auto [load, tile] : llvm::zip(loads, carried)) {
          load.getResult().replaceAllUsesWith(tile);
          load.erase();
        }
        return tiles;
      });
  (void)pipelined; // scf.for always supports additional yields.
}

namespace {

struct TCUPrefetchChunksPass
    : tcu::impl::TCUPrefetchChunksBase<TCUPrefetchChunksPass> {
  void runOnOperation() override {
    // The marked loops in the order of their first block barriers, the
    // order of the phases the outlining found in them: a loop's prefetch
    // moves loads to its parent's top level, where an enclosing marked loop
    // would see them.
    SetVector<Operation *> loops;
    getOperation()->walk([&](gpu::BarrierOp barrier) {
      Operation *parent = barrier->getParentOp();
      if (isa<scf::ForOp>(parent) && parent->hasAttr(kChunkLoopAttr))
        loops.insert(parent);
    });
    for (Operation *loop : loops) {
      loop->removeAttr(kChunkLoopAttr);
      prefetchChunkLoads(cast<scf::ForOp>(loop));
    }
  }
};

} // namespace
