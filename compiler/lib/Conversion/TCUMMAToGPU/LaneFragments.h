//===- LaneFragments.h - one lane's share of a 16x16 tile -------*- C++ -*-===//
//
// On the GPU a tile lives in the 32 lanes of one warp, 8 elements per lane,
// in the layout of the `mma.sync.m16n8k16` A operand and accumulator. Lane
// l = 4g + t (g = l / 4, t = l % 4) holds, in slot s (0..7), the element
//
//   row = g + 8 * ((s >> 1) & 1),   col = 2t + (s & 1) + 8 * (s >> 2).
//
// This one layout serves every role:
//  - accumulator (16x16 f32/i32): slots 0..3 are the C/D fragment of the
//    left 16x8 half, slots 4..7 the right half;
//  - A operand (16x16 f16/bf16): the four register pairs are slots (0,1),
//    (2,3), (4,5), (6,7);
//  - B operand: the B fragment of X (k x n) is the A-layout of X^T, so the
//    lowering keeps data used as B in transposed form (loading a `rows` tile
//    as `cols` gives its transpose) and builds constant matrices in either
//    form from their entries.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_TCUMMATOGPU_LANEFRAGMENTS_H
#define TCUC_CONVERSION_TCUMMATOGPU_LANEFRAGMENTS_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::tcu::gpu_lowering {

/// Elements of a tile one lane holds.
constexpr int64_t kSlots = 8;

/// Row and column of slot `s` of lane `lane` (host-side, for tables/tests).
int slotRow(int lane, int s);
int slotCol(int lane, int s);
/// The lane and slot that hold element (row, col): the inverse of
/// slotRow/slotCol.
struct LaneSlot {
  int lane, slot;
};
LaneSlot laneSlotOf(int row, int col);

/// The lane's fragment type for a tile of `elementType`: vector<8xT>.
VectorType fragmentType(Type elementType);

/// Index values describing where the current lane's slots sit.
struct LanePosition {
  Value g; // index: lane / 4
  Value t; // index: lane % 4
  Value row(OpBuilder &b, Location loc, int s) const;
  Value col(OpBuilder &b, Location loc, int s) const;
};
LanePosition getLanePosition(OpBuilder &b, Location loc);

/// The lane's fragment of the named matrix `kind` (L cut into diagonal
/// blocks of `block` rows; or its transpose), element type `elementType`.
/// Entries come from tcu::matrixEntry through a 32-bit per-slot table
/// indexed by the lane.
Value buildMatrixFragment(OpBuilder &b, Location loc, MatrixKind kind,
                          int block, bool transposed, Type elementType);

/// The lane's fragment of the constant tile whose entry (r, c) is
/// `entry(r, c)` (or of its transpose), element type `elementType`: each
/// slot starts from lane 0's value and selects each other value by a
/// 32-bit table of the lanes that hold it (a decay matrix has up to 15
/// values a slot; loop-invariant, so built once a kernel).
Value buildEntriesFragment(OpBuilder &b, Location loc,
                           function_ref<double(int row, int col)> entry,
                           bool transposed, Type elementType);

/// The lane's fragment of the decay matrix `op` (or of its transpose):
/// from its entries for a constant decay, computed in the kernel for a
/// decay given at run time (`decay`, the f32 value:
/// tcuc/Conversion/DecayPowers.h, each slot's power affine in the lane).
Value buildDecayFragment(OpBuilder &b, Location loc, DecayMatrixOp op,
                         Value decay, bool transposed);

/// D = A · B + C on fragments: `lhs` in A layout, `rhsT` the fragment of
/// B's transpose, `acc` the accumulator fragment. f16 and bf16 operands use
/// `mma.sync.m16n8k16` on a zero accumulator, and C (unless it is a +0
/// constant) is added with ordinary IEEE f32 adds: the Tensor Core's own
/// accumulation does not round to nearest (measured on the H100,
/// 2026-11-22: feeding a running sum through C over 257 products made the
/// error 10x that of a sequential f32 sum), and the running sums of long
/// segments and scan carries must not drift. i8 operands are converted to
/// f16 exactly (|x| <= 128); each product (|sum| <= 2048) is exact in f32,
/// converted and added to the i32 accumulator.
Value buildMMA(OpBuilder &b, Location loc, Value lhs, Value rhsT, Value acc);

/// Whether any lane's float `fragment` holds a NaN or an infinity: an i1,
/// the same in every lane (vote.sync.any).
Value anyNonFinite(OpBuilder &b, Location loc, Value fragment);

/// Whether any lane's f32 `fragment` holds a value that tcu.split cannot
/// keep whole: 0 < |x| < 2^-110, whose low bits fall below bf16's
/// smallest subnormal (f32 subnormals among them). An i1, the same in every
/// lane.
Value anyTiny(OpBuilder &b, Location loc, Value fragment);

/// D = K · X + C (`constOnLeft`) or X · K + C for the named 0/1 matrix K,
/// computed as sums of the selected elements of X with f32 adds in order of
/// k, then C added: the exact path for data with NaN or Inf, which a Tensor
/// Core product would spread to every output of the tile (0 · NaN and
/// 0 · Inf are NaN), and for f32 data too small to split exactly.
/// `data` is X's fragment in A layout for X · K, X^T's for K · X (as
/// buildMMA takes them); f16, bf16 or f32 data, f32 accumulator.
///
/// The warp writes the data to a tile of workgroup memory (one per warp,
/// `tcuc_exact_tiles` in the gpu.module around `at`, sized by its block
/// size) and each lane sums its outputs one at a time in a loop over k: slow,
/// for tiles with NaN or Inf only, but it needs few registers beyond those
/// the kernel already holds. Unrolled with shuffles (the form before
/// 2026-11-24) it needed about 30 more, which every kernel containing it
/// paid for on its fast path too (a 2-tile f16->f16 scan: 66 registers
/// without it, 96 with it).
Value buildSelectedSums(OpBuilder &b, Location loc, Operation *at,
                        MatrixKind kind, int block, bool constOnLeft,
                        Value data, Value acc);
/// The same for M · X with M a mask matrix (tcu::matchMaskMatrix) given
/// by the lane's fragment `lhs` of its 0/1 values: the selected k of each
/// row come from the lanes through shuffles. (Read from the operand the mma
/// takes anyway, not from the i1 mask, which would stay packed in
/// registers for this rarely taken path.)
Value buildMaskedSums(OpBuilder &b, Location loc, Operation *at, Value lhs,
                      Value data, Value acc);
/// A buffer of workgroup memory with `perWarp` elements of `elt` for each
/// warp of the block (the gpu.module's block size, around `at`), the
/// global `name` of that module: the exact paths' scratch.
Value warpScratch(OpBuilder &b, Location loc, Operation *at, StringRef name,
                  Type elt, int64_t perWarp);
/// The index an asm statement with a side effect gives (`text`, "=r"):
/// nothing derived from it is hoisted out of a rarely taken branch, and a
/// loop bound by it is not unrolled.
Value opaqueIndex(OpBuilder &b, Location loc, StringRef text);
/// Whether the warp's tcu.linear_recurrence must take the exact path
/// (buildSequentialRecurrence): one of the elements of `fragment` (the
/// lane's, f16, bf16 or f32) or `init` is NaN or +-Inf, or so large (|x| >=
/// 2^100, |init| >= 2^121) that h could overflow within the tile. One vote
/// for the warp.
Value needsExactRecurrence(OpBuilder &b, Location loc, Value fragment,
                           Value init);
/// `op` (a tcu.linear_recurrence) element by element in its order, as the
/// sequential f32 loop runs it: h = a*h + x (a multiply, then an add), h =
/// x at a head, each row from init with `rows`. Its exact path: the lanes'
/// compositions would meet 0*Inf (a head's zero decay, a power that
/// underflowed) where the loop meets none. The warp writes its elements and
/// decays (`decays`, one a slot) to workgroup memory
/// (`tcuc_exact_recurrence`, 2 KB a warp) and lane 0 runs the 256 steps,
/// so the path holds few registers beside the kernel's own. `x`, `decays`
/// and `heads` (i1, or empty) are the lane's slots.
SmallVector<Value> buildSequentialRecurrence(OpBuilder &b, Location loc,
                                             LinearRecurrenceOp op,
                                             ArrayRef<Value> x,
                                             ArrayRef<Value> decays,
                                             ArrayRef<Value> heads, Value init);

} // namespace mlir::tcu::gpu_lowering

#endif // TCUC_CONVERSION_TCUMMATOGPU_LANEFRAGMENTS_H
