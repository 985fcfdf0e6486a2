//===- TileRuns.cpp - runs of tile accesses one test can serve ------------===//
//
// The analysis behind the tile-run lowering of TileAccessOps.cpp: which
// loads and stores of a kernel's blocks lie a constant distance apart in
// one buffer, with nothing between them that could observe the order.
//
//===----------------------------------------------------------------------===//

#include "TileRuns.h"
#include "GPUPatterns.h"

#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// A sum of index values times constant coefficients, plus a constant.
struct LinearIndex {
  SmallVector<std::pair<Value, int64_t>> terms;
  int64_t constant = 0;
};

/// Adds `scale` times `v` to `sum`, looking through arith.addi, arith.muli
/// by a constant and index constants (a few levels deep): tile bases built
/// as `first + i * 256` or as `(t + i) * 256` compare equal up to the
/// constant, however the producer associated them.
void addLinear(Value v, int64_t scale, LinearIndex &sum, int depth = 4) {
  if (std::optional<int64_t> c = getConstantIntValue(v)) {
    sum.constant += scale * *c;
    return;
  }
  if (depth > 0) {
    if (auto add = v.getDefiningOp<arith::AddIOp>()) {
      addLinear(add.getLhs(), scale, sum, depth - 1);
      addLinear(add.getRhs(), scale, sum, depth - 1);
      return;
    }
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      if (std::optional<int64_t> k = getConstantIntValue(mul.getRhs())) {
        addLinear(mul.getLhs(), scale * *k, sum, depth - 1);
        return;
      }
      if (std::optional<int64_t> k = getConstantIntValue(mul.getLhs())) {
        addLinear(mul.getRhs(), scale * *k, sum, depth - 1);
        return;
      }
    }
  }
  sum.terms.push_back({v, scale});
}

/// `v` as a LinearIndex with one entry per value (coefficients merged,
/// zeros dropped), in a fixed order.
LinearIndex linearIndexOf(Value v) {
  LinearIndex sum;
  addLinear(v, 1, sum);
  llvm::sort(sum.terms, [](auto &x, auto &y) {
    return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
  });
  SmallVector<std::pair<Value, int64_t>> merged;
  for (auto [value, coefficient] : sum.terms) {
    if (!merged.empty() && merged.back().first == value)
      merged.back().second += coefficient;
    else
      merged.push_back({value, coefficient});
  }
  llvm::erase_if(merged, [](auto &t) { return t.second == 0; });
  sum.terms = std::move(merged);
  return sum;
}

/// b - a where the two differ by a constant (linearIndexOf), else none.
std::optional<int64_t> constantDifference(Value a, Value b) {
  LinearIndex la = linearIndexOf(a), lb = linearIndexOf(b);
  if (la.terms != lb.terms)
    return std::nullopt;
  return lb.constant - la.constant;
}

} // namespace

// Mirrored accesses (reverse scans) lower one tile at a time: never a run.
bool TileRuns::sameKind(LoadTileOp a, LoadTileOp b) {
  return !a.getMirror() && !b.getMirror() && a.getSource() == b.getSource() &&
         a.getLayout() == b.getLayout() && a.getStride() == b.getStride() &&
         a.getLineLength() == b.getLineLength() &&
         a.getLimit() == b.getLimit() && a.getFrom() == b.getFrom() &&
         a.getOrder() == b.getOrder() && a.getCache() == b.getCache();
}
bool TileRuns::sameKind(StoreTileOp a, StoreTileOp b) {
  return !a.getMirror() && !b.getMirror() && a.getDest() == b.getDest() &&
         a.getStride() == b.getStride() &&
         a.getLineLength() == b.getLineLength() &&
         a.getLimit() == b.getLimit() && a.getFrom() == b.getFrom() &&
         a.getOrder() == b.getOrder() && a.getCache() == b.getCache();
}

TileRuns::TileRuns(Operation *root) {
  root->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel->hasAttr(kTileRunsAttr))
      kernel.walk([&](Block *block) { addRuns(block); });
  });
}

void TileRuns::addRuns(Block *block) {
  SmallVector<std::pair<LoadTileOp, int64_t>> loadRun;
  SmallVector<std::pair<StoreTileOp, int64_t>> storeRun;
  auto closeLoads = [&] {
    if (loadRun.size() > 1)
      loads[loadRun.front().first] =
          SmallVector<std::pair<LoadTileOp, int64_t>>(
              llvm::drop_begin(loadRun));
    loadRun.clear();
  };
  auto closeStores = [&] {
    if (storeRun.size() > 1) {
      stores[storeRun.back().first] = storeRun;
      for (auto &member : llvm::drop_end(storeRun))
        movedStores.insert(member.first);
    }
    storeRun.clear();
  };
  // Adds `op` to `run` if it continues it, else starts a new run.
  auto extend = [](auto &run, auto op, int64_t width, auto close) {
    if (!run.empty() && sameKind(run.front().first, op)) {
      std::optional<int64_t> d =
          constantDifference(run.front().first.getBase(), op.getBase());
      if (d && *d > run.back().second && *d % width == 0) {
        run.push_back({op, *d});
        return;
      }
    }
    close();
    run.push_back({op, 0});
  };
  for (Operation &op : *block) {
    // Members share `from` (sameKind): the run's first tile is the lowest,
    // so its test against `from` holds for every member.
    if (auto load = dyn_cast<LoadTileOp>(&op)) {
      closeStores();
      extend(loadRun, load,
             slotGroups(load.getLayout(), load.getOrder()).front().size(),
             closeLoads);
      continue;
    }
    if (auto store = dyn_cast<StoreTileOp>(&op)) {
      closeLoads();
      extend(storeRun, store,
             slotGroups(TileLayout::Rows, store.getOrder()).front().size(),
             closeStores);
      continue;
    }
    // The warp barrier the outlining puts after each store orders it
    // before later reads by the warp's other lanes: a run's stores
    // keep that order at its last one, its loads read after it.
    if (isa<NVVM::SyncWarpOp>(op))
      continue;
    if (op.getNumRegions() || !isMemoryEffectFree(&op)) {
      closeLoads();
      closeStores();
    }
  }
  closeLoads();
  closeStores();
}
