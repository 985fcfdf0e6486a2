//===- TCUMMAToGPU.cpp - convert-tcu-mma-to-gpu (the GPU backend) ---------===//
//
// Runs the mma form on Tensor Cores, one warp per work item:
//  1. outline: every top-level scf.parallel becomes a gpu.func kernel
//     (KernelOutlining.cpp), the host function a launch plan;
//  2. data used as the right operand of a product is re-expressed as its
//     transpose, because the mma.sync B fragment of X is the A-layout
//     fragment of X^T (LaneFragments.h): a 16-bit tile whose elements keep
//     their places, or one a loop carries, is transposed in registers
//     (movmatrix), other loads are loaded again in the other layout (`rows`
//     as `cols`);
//  3. tiles become per-lane fragments (vector<16x16xT> -> vector<8xT>):
//     tcu.mma -> mma.sync.m16n8k16, loads/stores -> per-lane masked scalar
//     accesses that never touch masked-off addresses, tcu.split -> the same
//     arithmetic as on the CPU applied to the lane's 8 elements.
//
//===----------------------------------------------------------------------===//

#include "GPUPatterns.h"
#include "KernelOutlining.h"
#include "LaneFragments.h"

#include "tcuc/Conversion/Passes.h"
#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcu {
#define GEN_PASS_DEF_CONVERTTCUMMATOGPU
#include "tcuc/Conversion/Passes.h.inc"
} // namespace mlir::tcu

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// Marks a tcu.mma whose `rhs` operand holds the transpose of the right
/// factor (set by the transposition step, consumed by the lowering).
constexpr StringLiteral kRhsTransposedAttr = "tcuc.rhs_transposed";

//===----------------------------------------------------------------------===//
// Step 2: right operands as transposes
//===----------------------------------------------------------------------===//

/// Whether a tile of `elt` can be transposed in registers (movmatrix moves
/// 16-bit elements; i8 travels as f16, exactly).
bool transposesInRegisters(Type elt) {
  return elt.isF16() || elt.isBF16() || elt.isSignlessInteger(8);
}

/// vector.transpose of the tile `v`, right after its definition (at the
/// start of its block for a block argument: a tile carried by a loop).
Value registerTranspose(Value v) {
  OpBuilder b(v.getContext());
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  return vector::TransposeOp::create(b, v.getLoc(), v, ArrayRef<int64_t>{1, 0});
}

/// The transpose of `v`, built next to its definition:
/// - a 16-bit tile load whose elements keep their places: a
///   vector.transpose of it (movmatrix in registers: the load itself is
///   4-byte pairs, where a `cols` load would be one 2-byte load per
///   element);
/// - any other tile load: the load with the other layout (its element
///   order is free, or 32-bit elements would need two movmatrix a pair);
/// - tcu.split of such a load: the split of the transposed load (split is
///   elementwise); a split of anything else: its parts transposed;
/// - any other 16-bit or i8 tile (a tile a loop carries): a
///   vector.transpose.
FailureOr<Value> transposed(Value v, DenseMap<Value, Value> &memo) {
  if (Value t = memo.lookup(v))
    return t;
  Operation *def = v.getDefiningOp();
  Type elt = cast<VectorType>(v.getType()).getElementType();
  OpBuilder b(v.getContext());
  if (auto load = dyn_cast_or_null<LoadTileOp>(def)) {
    if (load.getOrder() == ElementOrder::Fixed && (elt.isF16() || elt.isBF16()))
      return memo[v] = registerTranspose(v);
    // A quads load's order is fixed too, and it has no `cols` form.
    if (load.getOrder() == ElementOrder::Quads) {
      if (!transposesInRegisters(elt))
        return failure();
      return memo[v] = registerTranspose(v);
    }
    b.setInsertionPointAfter(load);
    auto flipped = cast<LoadTileOp>(b.clone(*load));
    flipped.setLayout(load.getLayout() == TileLayout::Rows ? TileLayout::Cols
                                                           : TileLayout::Rows);
    return memo[v] = flipped.getResult();
  }
  if (auto split = dyn_cast_or_null<SplitOp>(def)) {
    if (isa_and_nonnull<LoadTileOp>(split.getSource().getDefiningOp())) {
      FailureOr<Value> source = transposed(split.getSource(), memo);
      if (failed(source))
        return failure();
      b.setInsertionPointAfter(split);
      auto parts =
          SplitOp::create(b, split.getLoc(), split.getResultTypes(), *source);
      for (auto [orig, part] :
           llvm::zip(split.getResults(), parts.getResults()))
        memo[orig] = part;
      return memo.lookup(v);
    }
  }
  if (transposesInRegisters(elt))
    return memo[v] = registerTranspose(v);
  return failure();
}

LogicalResult transposeRightOperands(Operation *root) {
  DenseMap<Value, Value> memo;
  WalkResult r = root->walk([&](MMAOp mma) {
    if (mma.getRhs().getDefiningOp<MatrixOp>())
      return WalkResult::advance();
    FailureOr<Value> t = transposed(mma.getRhs(), memo);
    if (failed(t)) {
      mma.emitOpError("right operand must be a constant matrix, loaded "
                      "data (possibly split) or a 16-bit or i8 tile to lower "
                      "to mma.sync");
      return WalkResult::interrupt();
    }
    mma.getRhsMutable().assign(*t);
    mma->setAttr(kRhsTransposedAttr, UnitAttr::get(mma.getContext()));
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  // Originals now used by nothing (a tile only ever used as a right operand)
  // are erased here rather than lowered for nothing and dropped by a later
  // canonicalize. A split goes before the load it reads.
  SetVector<Operation *> defs;
  for (auto &entry : memo)
    if (Operation *def = entry.first.getDefiningOp())
      defs.insert(def);
  SmallVector<Operation *> originals = defs.takeVector();
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : originals)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Step 3: tiles to lane fragments
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
          Value y) {
  return arith::CmpIOp::create(b, loc, p, x, y);
}

/// Converts a scalar of a tile's element type to a buffer's (f32 -> f16 or
/// bf16 rounds to nearest even, as on the CPU).
Value toElement(OpBuilder &b, Location loc, Value x, Type to) {
  if (x.getType() == to)
    return x;
  if (isa<FloatType>(to) &&
      cast<FloatType>(to).getWidth() < cast<FloatType>(x.getType()).getWidth())
    return arith::TruncFOp::create(b, loc, to, x);
  return arith::ExtFOp::create(b, loc, to, x);
}

/// if (valid) load src[addr] else 0.
Value maskedLoad(OpBuilder &b, Location loc, Value valid, Value src,
                 Value addr) {
  Type elt = cast<MemRefType>(src.getType()).getElementType();
  auto ifOp = scf::IfOp::create(
      b, loc, valid,
      [&](OpBuilder &t, Location l) {
        Value v = memref::LoadOp::create(t, l, src, addr);
        scf::YieldOp::create(t, l, v);
      },
      [&](OpBuilder &e, Location l) {
        Value z = arith::ConstantOp::create(e, l, e.getZeroAttr(elt));
        scf::YieldOp::create(e, l, z);
      });
  return ifOp.getResult(0);
}

/// if (valid) dest[addr] = x (converted to the buffer's type); with
/// `accumulate`, dest[addr] += x in x's type.
void maskedStore(OpBuilder &b, Location loc, Value valid, Value x, Value dest,
                 Value addr, bool accumulate = false) {
  Type destElt = cast<MemRefType>(dest.getType()).getElementType();
  auto ifOp = scf::IfOp::create(b, loc, valid);
  OpBuilder then = ifOp.getThenBodyBuilder();
  if (accumulate) {
    Value old = memref::LoadOp::create(then, loc, dest, addr);
    old = toElement(then, loc, old, x.getType());
    x = isa<FloatType>(x.getType())
            ? arith::AddFOp::create(then, loc, old, x).getResult()
            : arith::AddIOp::create(then, loc, old, x).getResult();
  }
  memref::StoreOp::create(then, loc, toElement(then, loc, x, destElt), dest,
                          addr);
}

/// Slot s of a tile access: the element (row, col) lies on line `row`
/// (`rows` layout) or line `col` (`cols`), at position col or row. Freedoms
/// of `order` (tcu.load_tile's) let a lane's elements be consecutive in
/// memory:
/// - Line permutes the positions within each line: in `rows`, the
///   lane's columns {2t, 2t+1, 2t+8, 2t+9} of a row become positions
///   4t..4t+3; in `cols`, its rows {g, g+8} of a column become 2g, 2g+1;
/// - Tile ignores the layout: lane L's slot s is element L * 8 + s of
///   the 256 in line order (line 2g + t / 2, position 8 (t % 2) + s).
/// Each is a bijection on the tile's 16 x 16 (line, position) pairs.
struct SlotAddress {
  Value addr, valid;
};

/// The slot's part of its element's (line, position): in every layout and
/// order these split into a lane's part (laneLine / laneStart below) plus
/// a constant of the slot, so whole tiles can address every slot from one
/// lane base.
struct SlotOffset {
  int64_t line, position;
  /// Elements past slot 0's, for lines `stride` elements apart.
  int64_t elements(int64_t stride) const { return line * stride + position; }
};
/// Whether a lane's four elements of a row take four consecutive positions
/// of the line: `line` order (any position is fine) and `quads` (rows only:
/// the positions the quads permutation gives them, which are those).
bool quadsOfLine(ElementOrder order) {
  return order == ElementOrder::Line || order == ElementOrder::Quads;
}

SlotOffset slotOffset(int s, TileLayout layout, ElementOrder order) {
  // Lane 0 (g = t = 0) holds exactly the slot's part of row and column.
  int64_t rowOff = slotRow(0, s), colOff = slotCol(0, s);
  if (order == ElementOrder::Tile)
    return {0, s};
  // quads: lane t's slot s is column 2t + (s & 1) + 8 (s >> 2), at line
  // position 4t + (s & 1) + 2 (s >> 2) (laneLineStart gives 4t): the
  // position tcu::quadsPosition gives that column (QuadsOrderTest checks
  // quadsPosition against these positions; test/Conversion/TCUMMAToGPU/
  // quads.mlir pins the accesses).
  if (layout == TileLayout::Rows)
    return {rowOff, quadsOfLine(order) ? (s & 1) + 2 * (s >> 2) : colOff};
  return {colOff, order == ElementOrder::Line ? (s >> 1) & 1 : rowOff};
}

/// The lane's part of slot 0's (line, position) (see slotOffset).
std::pair<Value, Value> laneLineStart(OpBuilder &b, Location loc,
                                      const LanePosition &lane,
                                      TileLayout layout, ElementOrder order) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, int64_t k) -> Value {
    return arith::MulIOp::create(b, loc, x, c(k));
  };
  if (order == ElementOrder::Tile)
    return {add(mul(lane.g, 2), arith::DivUIOp::create(b, loc, lane.t, c(2))),
            mul(arith::RemUIOp::create(b, loc, lane.t, c(2)), 8)};
  // Rows: line g, position 2t (line and quads order: 4t); cols: the
  // transpose (line order: 2g).
  if (layout == TileLayout::Rows)
    return {lane.g, mul(lane.t, quadsOfLine(order) ? 4 : 2)};
  return {mul(lane.t, 2),
          order == ElementOrder::Line ? mul(lane.g, 2) : lane.g};
}

SlotAddress slotAddress(OpBuilder &b, Location loc, const LanePosition &lane,
                        int s, TileLayout layout, Value base, Value stride,
                        Value lineLength, Value limit,
                        ElementOrder order = ElementOrder::Fixed) {
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  auto add = [&](Value x, int64_t k) -> Value {
    return k ? arith::AddIOp::create(b, loc, x, c(k)).getResult() : x;
  };
  auto [laneLine, laneStart] = laneLineStart(b, loc, lane, layout, order);
  SlotOffset off = slotOffset(s, layout, order);
  Value line = add(laneLine, off.line), j = add(laneStart, off.position);
  Value addr = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, line, stride),
                            j));
  Value valid = arith::AndIOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::slt, j, lineLength),
      cmp(b, loc, arith::CmpIPredicate::slt, addr, limit));
  return {addr, valid};
}

/// Slots holding consecutive positions of one line, in position order: the
/// accesses a whole tile can make as one vector each.
SmallVector<SmallVector<int, 8>, 8> slotGroups(TileLayout layout,
                                               ElementOrder order) {
  if (order == ElementOrder::Tile)
    return {{0, 1, 2, 3, 4, 5, 6, 7}};
  bool lineFree = order == ElementOrder::Line;
  if (layout == TileLayout::Rows && quadsOfLine(order))
    return {{0, 1, 4, 5}, {2, 3, 6, 7}};
  if (layout == TileLayout::Rows)
    return {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  if (lineFree)
    return {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
  return {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
}

/// Each group's first element past the first group's (in elements), where
/// the tile's line stride is a constant: one address serves a whole tile.
std::optional<SmallVector<int64_t>>
groupOffsets(ArrayRef<SmallVector<int, 8>> groups, TileLayout layout,
             ElementOrder order, Value stride) {
  std::optional<int64_t> lines = getConstantIntValue(stride);
  if (!lines)
    return std::nullopt;
  int64_t first =
      slotOffset(groups.front().front(), layout, order).elements(*lines);
  SmallVector<int64_t> offsets;
  for (ArrayRef<int> group : groups)
    offsets.push_back(
        slotOffset(group.front(), layout, order).elements(*lines) - first);
  return offsets;
}

/// Whether a tile access needs no masks: every line is complete
/// (line_length >= 16), the last element base + 15 * stride + 15 is below
/// `limit`, and each group of `width` consecutive elements on a line starts
/// `width`-element aligned in `buffer` (base and stride multiples of width,
/// the buffer's address a multiple of width elements), so it can move as
/// one vector<width x T>.
Value isWholeTile(OpBuilder &b, Location loc, Value buffer, Value base,
                  Value stride, Value lineLength, Value limit, int64_t width) {
  using P = arith::CmpIPredicate;
  auto c = [&](int64_t v) { return constIndex(b, loc, v); };
  Value last = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, stride, c(kTileSize - 1)),
          c(kTileSize - 1)));
  int64_t eltBytes = cast<MemRefType>(buffer.getType())
                         .getElementType()
                         .getIntOrFloatBitWidth() /
                     8;
  Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value start = arith::AddIOp::create(
      b, loc, ptr, arith::MulIOp::create(b, loc, base, c(eltBytes)));
  Value parity = arith::OrIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, start, c(width * eltBytes)),
      arith::RemUIOp::create(b, loc, stride, c(width)));
  Value ok = arith::AndIOp::create(
      b, loc, cmp(b, loc, P::sge, lineLength, c(kTileSize)),
      cmp(b, loc, P::slt, last, limit));
  ok = arith::AndIOp::create(b, loc, ok, cmp(b, loc, P::sge, stride, c(0)));
  return arith::AndIOp::create(b, loc, ok, cmp(b, loc, P::eq, parity, c(0)));
}

/// `base + offset` (`base` itself for offset 0).
Value offsetBase(OpBuilder &b, Location loc, Value base, int64_t offset) {
  return offset
             ? arith::AddIOp::create(b, loc, base, constIndex(b, loc, offset))
                   .getResult()
             : base;
}

/// isWholeTile for a run of tiles at `base` + offsets from 0 to `last`
/// (multiples of `width`): its first and last tiles are whole, so every
/// tile between is in bounds and aligned alike. One tile when `last` is 0.
Value isWholeRun(OpBuilder &b, Location loc, Value buffer, Value base,
                 int64_t last, Value stride, Value lineLength, Value limit,
                 int64_t width) {
  Value whole =
      isWholeTile(b, loc, buffer, base, stride, lineLength, limit, width);
  if (!last)
    return whole;
  return arith::AndIOp::create(b, loc, whole,
                               isWholeTile(b, loc, buffer,
                                           offsetBase(b, loc, base, last),
                                           stride, lineLength, limit, width));
}

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

/// Runs of tile accesses that one whole-run test can serve: loads (or
/// stores) of one block with the same buffer, layout, stride, line length,
/// limit, order and hint, whose bases lie a constant multiple of the vector
/// width above the first's, with only side-effect-free operations between
/// them, in kernels whose items allow it (kTileRunsAttr: the lagged scan's
/// reduced, scanned and stored runs of k tiles a warp; the reduce walks'
/// loaded runs, seg256n and the grid's chunks; the block scans
/// measured slower with runs, bench/results/tile-runs: the 16 warps of a
/// block leave one barrier together, issue their store runs back to back
/// and stall on the full load/store queue, bench/results/lagged-f16-0.6.24).
/// Such a run tests
/// its bounds and alignment, and makes its policy and 64-bit address, once
/// instead of once a tile. A load run is lowered at its first load (the
/// later loads move up to it), a store run at its last store (the earlier
/// stores move down to it; their values are all computed by then).
struct TileRuns {
  /// A run's members after its first, with their offsets (elements past
  /// the first's base), keyed by the first load.
  DenseMap<Operation *, SmallVector<std::pair<LoadTileOp, int64_t>>> loads;
  /// A run's members, the first included (offset 0), keyed by the last
  /// store; `movedStores` holds every member but the last.
  DenseMap<Operation *, SmallVector<std::pair<StoreTileOp, int64_t>>> stores;
  DenseSet<Operation *> movedStores;

  static bool sameKind(LoadTileOp a, LoadTileOp b) {
    return a.getSource() == b.getSource() && a.getLayout() == b.getLayout() &&
           a.getStride() == b.getStride() &&
           a.getLineLength() == b.getLineLength() &&
           a.getLimit() == b.getLimit() && a.getOrder() == b.getOrder() &&
           a.getCache() == b.getCache();
  }
  static bool sameKind(StoreTileOp a, StoreTileOp b) {
    return a.getDest() == b.getDest() && a.getStride() == b.getStride() &&
           a.getLineLength() == b.getLineLength() &&
           a.getLimit() == b.getLimit() && a.getOrder() == b.getOrder() &&
           a.getCache() == b.getCache();
  }

  /// The runs of the kernels in `root` that allow them (kTileRunsAttr).
  explicit TileRuns(Operation *root) {
    root->walk([&](gpu::GPUFuncOp kernel) {
      if (kernel->hasAttr(kTileRunsAttr))
        kernel.walk([&](Block *block) { addRuns(block); });
    });
  }

  void addRuns(Block *block) {
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
};

struct LowerLoadTile : OpConversionPattern<LoadTileOp> {
  LowerLoadTile(const TypeConverter &types, MLIRContext *ctx,
                const TileRuns *runs)
      : OpConversionPattern(types, ctx), runs(runs) {}

  LogicalResult
  matchAndRewrite(LoadTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value src = adaptor.getSource();
    Type fragment = fragmentType(op.getType().getElementType());
    // The tiles loaded here: this one, or a run's (TileRuns), whose later
    // tiles move up to it.
    ArrayRef<std::pair<LoadTileOp, int64_t>> run;
    if (runs)
      if (auto it = runs->loads.find(op); it != runs->loads.end())
        run = it->second;
    SmallVector<int64_t> offsets{0};
    for (auto &member : run)
      offsets.push_back(member.second);
    Value base = adaptor.getBase(), stride = adaptor.getStride(),
          lineLength = adaptor.getLineLength(), limit = adaptor.getLimit();
    // Whole tiles (all but the ragged ends; a run when its first and last
    // tiles are: the bases between are in range and, being multiples of
    // the width apart, aligned alike) load without masks, each group of
    // consecutive elements as one vector access from the first tile's lane
    // address (one PTX block where hinted; the L2 hint goes on these
    // accesses only); the rest masks each element.
    Type elt = cast<MemRefType>(src.getType()).getElementType();
    ElementOrder order = op.getOrder();
    auto groups = slotGroups(op.getLayout(), order);
    int64_t width = groups.front().size();
    Value whole = isWholeRun(rewriter, loc, src, base, offsets.back(), stride,
                             lineLength, limit, width);
    bool hinted = canHint(op.getCache(), width * getElementBytes(elt));
    std::optional<SmallVector<int64_t>> tileOffsets =
        groupOffsets(groups, op.getLayout(), order, stride);
    size_t count = offsets.size() * kSlots;
    auto ifOp = scf::IfOp::create(
        rewriter, loc, whole,
        [&](OpBuilder &b, Location l) {
          SmallVector<Value> slots(count);
          auto type = VectorType::get({width}, elt);
          auto place = [&](size_t tile, ArrayRef<int> group, Value vec) {
            for (auto [k, s] : llvm::enumerate(group))
              slots[tile * kSlots + s] =
                  vector::ExtractOp::create(b, l, vec, int64_t(k));
          };
          if (hinted && tileOffsets) {
            Value first =
                slotAddress(b, l, lane, groups.front().front(), op.getLayout(),
                            base, stride, lineLength, limit, order)
                    .addr;
            SmallVector<int64_t> all;
            for (int64_t offset : offsets)
              for (int64_t g : *tileOffsets)
                all.push_back(offset + g);
            SmallVector<Value> vectors =
                hintedLoads(b, l, op.getCache(), type, src, first, all);
            for (size_t tile = 0; tile < offsets.size(); ++tile)
              for (auto [g, group] : llvm::enumerate(groups))
                place(tile, group, vectors[tile * groups.size() + g]);
            scf::YieldOp::create(b, l, slots);
            return;
          }
          for (auto [tile, offset] : llvm::enumerate(offsets))
            for (ArrayRef<int> group : groups) {
              Value addr =
                  slotAddress(b, l, lane, group.front(), op.getLayout(),
                              offsetBase(b, l, base, offset), stride,
                              lineLength, limit, order)
                      .addr;
              if (width == 1) {
                slots[tile * kSlots + group.front()] =
                    memref::LoadOp::create(b, l, src, addr);
                continue;
              }
              place(tile, group,
                    hinted
                        ? hintedLoads(b, l, op.getCache(), type, src, addr, {0})
                              .front()
                        : vector::LoadOp::create(
                              b, l, type, src, ValueRange{addr},
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(width *
                                               elt.getIntOrFloatBitWidth() / 8))
                              .getResult());
            }
          scf::YieldOp::create(b, l, slots);
        },
        [&](OpBuilder &b, Location l) {
          SmallVector<Value> slots;
          for (int64_t offset : offsets)
            for (int s = 0; s < kSlots; ++s) {
              SlotAddress a = slotAddress(b, l, lane, s, op.getLayout(),
                                          offsetBase(b, l, base, offset),
                                          stride, lineLength, limit, order);
              slots.push_back(maskedLoad(b, l, a.valid, src, a.addr));
            }
          scf::YieldOp::create(b, l, slots);
        });
    auto tile = [&](size_t i) -> Value {
      return vector::FromElementsOp::create(
          rewriter, loc, fragment,
          ValueRange(ifOp.getResults()).slice(i * kSlots, kSlots));
    };
    for (auto [i, member] : llvm::enumerate(run))
      rewriter.replaceOp(member.first, tile(i + 1));
    rewriter.replaceOp(op, tile(0));
    return success();
  }

private:
  const TileRuns *runs;
};

struct LowerStoreTile : OpConversionPattern<StoreTileOp> {
  LowerStoreTile(const TypeConverter &types, MLIRContext *ctx,
                 const TileRuns *runs)
      : OpConversionPattern(types, ctx), runs(runs) {}

  LogicalResult
  matchAndRewrite(StoreTileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value dest = adaptor.getDest();
    Type destElt = cast<MemRefType>(dest.getType()).getElementType();
    // The tiles stored here: this one, or a run's (TileRuns) from its
    // first store's base, lowered at its last store.
    Value base = adaptor.getBase();
    SmallVector<std::pair<Value, int64_t>> tiles{{adaptor.getTile(), 0}};
    SmallVector<Operation *> moved;
    if (runs)
      if (auto it = runs->stores.find(op); it != runs->stores.end()) {
        StoreTileOp first = it->second.front().first;
        base = rewriter.getRemappedValue(first.getBase());
        tiles.clear();
        for (auto [member, offset] : it->second) {
          StoreTileOp store = member;
          tiles.push_back({store == op
                               ? adaptor.getTile()
                               : rewriter.getRemappedValue(store.getTile()),
                           offset});
          if (store != op)
            moved.push_back(store);
        }
      }
    Value stride = adaptor.getStride(), lineLength = adaptor.getLineLength(),
          limit = adaptor.getLimit();
    ElementOrder order = op.getOrder();
    auto address = [&](OpBuilder &b, int s, int64_t offset) {
      return slotAddress(b, loc, lane, s, TileLayout::Rows,
                         offsetBase(b, loc, base, offset), stride, lineLength,
                         limit, order);
    };
    auto slot = [&](OpBuilder &b, Value tile, int s) {
      return vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{s});
    };
    // As for loads: whole tiles (whole runs: their first and last tiles
    // are) store each group of consecutive elements as one vector,
    // unmasked; the rest per element.
    auto groups = slotGroups(TileLayout::Rows, order);
    int64_t width = groups.front().size();
    Value whole = isWholeRun(rewriter, loc, dest, base, tiles.back().second,
                             stride, lineLength, limit, width);
    scf::IfOp::create(
        rewriter, loc, whole,
        [&](OpBuilder &b, Location l) {
          bool hinted =
              canHint(op.getCache(), width * getElementBytes(destElt));
          SmallVector<Value> vectors;
          for (auto &tile : tiles)
            for (ArrayRef<int> group : groups) {
              SmallVector<Value> elements;
              for (int s : group)
                elements.push_back(
                    toElement(b, l, slot(b, tile.first, s), destElt));
              vectors.push_back(vector::FromElementsOp::create(
                  b, l, VectorType::get({width}, destElt), elements));
            }
          std::optional<SmallVector<int64_t>> offsets =
              hinted ? groupOffsets(groups, TileLayout::Rows, order, stride)
                     : std::nullopt;
          if (offsets) {
            SmallVector<int64_t> all;
            for (auto &tile : tiles)
              for (int64_t g : *offsets)
                all.push_back(tile.second + g);
            hintedStores(b, l, op.getCache(), vectors, dest,
                         address(b, groups.front().front(), 0).addr, all);
            scf::YieldOp::create(b, l);
            return;
          }
          for (auto [t, tile] : llvm::enumerate(tiles))
            for (auto [g, group] : llvm::enumerate(groups)) {
              Value vec = vectors[t * groups.size() + g];
              Value addr = address(b, group.front(), tile.second).addr;
              if (hinted)
                hintedStores(b, l, op.getCache(), vec, dest, addr, {0});
              else
                vector::StoreOp::create(
                    b, l, vec, dest, ValueRange{addr},
                    /*nontemporal=*/false,
                    llvm::MaybeAlign(width * destElt.getIntOrFloatBitWidth() /
                                     8));
            }
          scf::YieldOp::create(b, l);
        },
        [&](OpBuilder &b, Location l) {
          for (auto &tile : tiles)
            for (int s = 0; s < kSlots; ++s) {
              SlotAddress a = address(b, s, tile.second);
              maskedStore(b, l, a.valid, slot(b, tile.first, s), dest, a.addr);
            }
          scf::YieldOp::create(b, l);
        });
    for (Operation *store : moved)
      rewriter.eraseOp(store);
    rewriter.eraseOp(op);
    return success();
  }

private:
  const TileRuns *runs;
};

struct LowerStoreRow : OpConversionPattern<StoreRowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreRowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t row = op.getRow();
    LanePosition lane = getLanePosition(rewriter, loc);
    Value holdsRow = cmp(rewriter, loc, arith::CmpIPredicate::eq, lane.g,
                         constIndex(rewriter, loc, row % 8));
    int64_t step = op.getStep();
    for (int s = 0; s < kSlots; ++s) {
      if (((s >> 1) & 1) != row / 8)
        continue;
      // Column c goes to base + c / step when step divides it.
      Value col = lane.col(rewriter, loc, s);
      Value first = holdsRow;
      if (step > 1) {
        first = arith::AndIOp::create(
            rewriter, loc, holdsRow,
            cmp(rewriter, loc, arith::CmpIPredicate::eq,
                arith::RemUIOp::create(rewriter, loc, col,
                                       constIndex(rewriter, loc, step)),
                constIndex(rewriter, loc, 0)));
        col = arith::DivUIOp::create(rewriter, loc, col,
                                     constIndex(rewriter, loc, step));
      }
      Value addr = arith::AddIOp::create(rewriter, loc, adaptor.getBase(), col);
      Value valid =
          arith::AndIOp::create(rewriter, loc, first,
                                cmp(rewriter, loc, arith::CmpIPredicate::slt,
                                    addr, adaptor.getLimit()));
      Value x = vector::ExtractOp::create(rewriter, loc, adaptor.getTile(),
                                          ArrayRef<int64_t>{s});
      maskedStore(rewriter, loc, valid, x, adaptor.getDest(), addr,
                  op.getAccumulate());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerMatrix : OpConversionPattern<MatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatrixOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       buildMatrixFragment(rewriter, op.getLoc(), op.getKind(),
                                           op.getBlock(), false,
                                           op.getType().getElementType()));
    return success();
  }
};

/// The finite checks already built, by the fragment they checked (in A
/// layout). A tile that meets two named matrices (a scan's L·A and A·U)
/// needs one check: the vote covers the warp's 256 elements in either
/// layout. Filled in program order by one conversion; a check is reused only
/// where it dominates.
struct FiniteChecks {
  DenseMap<Value, Value> byFragment;

  Value get(OpBuilder &b, Location loc, Value fragment, Operation *at) {
    if (Value bad = byFragment.lookup(fragment)) {
      Operation *def = bad.getDefiningOp();
      Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*at);
      if (ancestor && def->isBeforeInBlock(ancestor))
        return bad;
    }
    return byFragment[fragment] = anyNonFinite(b, loc, fragment);
  }
};

struct LowerMMA : OpConversionPattern<MMAOp> {
  LowerMMA(const TypeConverter &types, MLIRContext *ctx, FiniteChecks *checks)
      : OpConversionPattern(types, ctx), checks(checks) {}
  FiniteChecks *checks; // null: no sharing

  LogicalResult
  matchAndRewrite(MMAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value rhsT;
    auto rhsMatrix = op.getRhs().getDefiningOp<MatrixOp>();
    if (rhsMatrix)
      rhsT = buildMatrixFragment(rewriter, loc, rhsMatrix.getKind(),
                                 rhsMatrix.getBlock(), true,
                                 rhsMatrix.getType().getElementType());
    else if (op->hasAttr(kRhsTransposedAttr))
      rhsT = adaptor.getRhs();
    else
      return rewriter.notifyMatchFailure(op, "right operand not transposed");
    Value lhs = adaptor.getLhs(), acc = adaptor.getAcc();
    auto lhsMatrix = op.getLhs().getDefiningOp<MatrixOp>();
    MatrixOp matrix = lhsMatrix ? lhsMatrix : rhsMatrix;
    if (!matrix || !isa<FloatType>(op.getLhs().getType().getElementType())) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // A product with a 0/1 matrix must add up the selected elements as IEEE
    // adds would: a NaN or Inf elsewhere in the tile must not reach outputs
    // that do not sum it, which the Tensor Core does (0 · NaN = NaN). Tiles
    // whose data are all finite (checked by the warp) take the mma; the
    // others the exact selected sums (docs/algorithms.md, "NaN and Inf").
    bool constOnLeft = static_cast<bool>(lhsMatrix);
    Value data = constOnLeft ? rhsT : lhs;
    // The lower parts of a tcu.split are finite by construction (a NaN or
    // Inf stays in `hi`): no check, the mma.
    auto part = dyn_cast<OpResult>(constOnLeft ? op.getRhs() : op.getLhs());
    if (part && isa<SplitOp>(part.getOwner()) && part.getResultNumber() > 0) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // Ones has no zero entry: every output is a sum of 1·x terms, so a NaN
    // or Inf reaches exactly the outputs that sum it, as IEEE adds do (the
    // reductions' Ones·A, the scans' carries A·Ones). No check needed.
    if (matrix.getKind() == MatrixKind::Ones) {
      rewriter.replaceOp(op, buildMMA(rewriter, loc, lhs, rhsT, acc));
      return success();
    }
    // The check reads the tile in A layout where the data is a transposed
    // tile: the same fragment its product on the other side checks.
    Value checked = data;
    if (constOnLeft)
      if (auto t = op.getRhs().getDefiningOp<vector::TransposeOp>())
        if (Value source = rewriter.getRemappedValue(t.getVector()))
          checked = source;
    Value bad = checks ? checks->get(rewriter, loc, checked, op)
                       : anyNonFinite(rewriter, loc, checked);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, bad,
        [&](OpBuilder &t, Location l) {
          scf::YieldOp::create(t, l,
                               buildSelectedSums(t, l, op, matrix.getKind(),
                                                 matrix.getBlock(), constOnLeft,
                                                 data, acc));
        },
        [&](OpBuilder &e, Location l) {
          scf::YieldOp::create(e, l, buildMMA(e, l, lhs, rhsT, acc));
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LowerSplit : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildSplitParts(rewriter, op.getLoc(), adaptor.getSource()));
    return success();
  }
};

/// tcu.block_prefix: the warps of the block meet at a barrier between the
/// stores and the loads (every warp runs one iteration of the phase: the
/// outlining checks it).
struct LowerBlockPrefix : OpConversionPattern<BlockPrefixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockPrefixOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op, lowerBlockPrefix(rewriter, op, [&] {
                         gpu::BarrierOp::create(rewriter, loc);
                       }));
    return success();
  }
};

/// Elementwise arith ops and broadcasts on tiles act on each lane's slots
/// the same way: rebuild them on the fragment type.
struct LowerElementwise : ConversionPattern {
  LowerElementwise(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || !isTile(op->getResult(0).getType()))
      return failure();
    Type type = getTypeConverter()->convertType(op->getResult(0).getType());
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense || !dense.isSplat())
        return rewriter.notifyMatchFailure(op, "non-splat tile constant");
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, DenseElementsAttr::get(cast<ShapedType>(type),
                                     dense.getSplatValue<Attribute>()));
      return success();
    }
    if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
      if (isa<VectorType>(bc.getSource().getType()))
        return rewriter.notifyMatchFailure(op, "vector broadcast source");
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type, operands[0]);
      return success();
    }
    if (op->getDialect()->getNamespace() != "arith" || op->getNumRegions())
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         type, op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

void populatePatterns(TypeConverter &types, RewritePatternSet &patterns,
                      FiniteChecks *checks, const TileRuns *runs);

struct ConvertTCUMMAToGPUPass
    : tcu::impl::ConvertTCUMMAToGPUBase<ConvertTCUMMAToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (blockSize < 32 || blockSize % 32 || blockSize > 1024) {
      module.emitError("block-size must be a multiple of 32 in [32, 1024]");
      return signalPassFailure();
    }
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (failed(
              outlineKernels(func, blockSize, prefetchChunks, dependentLaunch)))
        return signalPassFailure();
    }
    if (failed(transposeRightOperands(module)))
      return signalPassFailure();

    TypeConverter types;
    types.addConversion([](Type t) { return t; });
    types.addConversion([](VectorType t) -> Type {
      return isTile(t) ? fragmentType(t.getElementType()) : t;
    });
    ConversionTarget target(*ctx);
    target.addIllegalOp<MatrixOp, MMAOp, SplitOp, LoadTileOp, StoreTileOp,
                        StoreRowOp, RowSumsOp, BlockPrefixOp, TicketOp,
                        PrefetchOp, BlockLookbackOp, BlockLaggedLookbackOp,
                        LaggedPrefixOp, SegmentedReduceOp, SegmentedScanOp>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return types.isLegal(op); });
    RewritePatternSet patterns(ctx);
    FiniteChecks checks;
    TileRuns runs(module);
    // A run's earlier stores are lowered (and erased) by its last one.
    target.addDynamicallyLegalOp<StoreTileOp>(
        [&](StoreTileOp op) { return runs.movedStores.contains(op); });
    populatePatterns(types, patterns, &checks, &runs);
    scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    foldExactIntRoundTrips(module);
  }
};

/// The patterns, with `checks` shared by the products of one conversion
/// (null: each product checks its own data).
void populatePatterns(TypeConverter &types, RewritePatternSet &patterns,
                      FiniteChecks *checks, const TileRuns *runs) {
  patterns.add<LowerLoadTile, LowerStoreTile>(types, patterns.getContext(),
                                              runs);
  patterns.add<LowerStoreRow, LowerMatrix, LowerSplit, LowerBlockPrefix,
               LowerElementwise>(types, patterns.getContext());
  patterns.add<LowerMMA>(types, patterns.getContext(), checks);
  populateFragmentPatterns(types, patterns);
  populateTicketPrefetchPatterns(types, patterns);
  populateBlockLookbackPatterns(types, patterns);
  populateLaggedLookbackPatterns(types, patterns);
}

} // namespace

void mlir::tcu::populateTCUMMAToGPUPatterns(TypeConverter &types,
                                            RewritePatternSet &patterns) {
  populatePatterns(types, patterns, /*checks=*/nullptr, /*runs=*/nullptr);
}

bool gpu_lowering::isTile(Type t) {
  auto v = dyn_cast<VectorType>(t);
  return v && v.getShape() == ArrayRef<int64_t>{kTileSize, kTileSize};
}
