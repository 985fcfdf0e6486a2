//===- ChunkPrefetch.cpp - issue a loop's tile loads one iteration early --===//
//
// A block scan walks its segment in chunks, one block barrier per chunk
// (tcu.block_prefix). Without prefetching, a block's loads of chunk i + 1
// start only after every warp has passed chunk i's barrier, so DRAM sees
// each block's loads in bursts. prefetchChunkLoads moves the loads one
// iteration ahead: chunk i + 1 is in flight while the block scans, waits at
// the barrier and stores chunk i (docs/gpu.md, "Block items").
//
//===----------------------------------------------------------------------===//

#include "KernelOutlining.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tcu;

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

void gpu_lowering::prefetchChunkLoads(scf::ForOp loop) {
  SmallVector<LoadTileOp> loads;
  SetVector<Operation *> slice;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<LoadTileOp>(op);
    if (!load)
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

  // The loads (and the index arithmetic they need) of iteration `iv`.
  auto loadsAt = [&](OpBuilder &b, Value iv) {
    IRMapping map;
    map.map(loop.getInductionVar(), iv);
    for (Operation *op : slice)
      b.clone(*op, map);
    SmallVector<Value> tiles;
    for (LoadTileOp load : loads)
      tiles.push_back(b.clone(*load, map)->getResult(0));
    return tiles;
  };
  OpBuilder before(loop);
  SmallVector<Value> first = loadsAt(before, loop.getLowerBound());
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
        SmallVector<Value> tiles = loadsAt(top, next);
        for (auto [load, tile] : llvm::zip(loads, carried)) {
          load.getResult().replaceAllUsesWith(tile);
          load.erase();
        }
        return tiles;
      });
  (void)pipelined; // scf.for always supports additional yields.
}
