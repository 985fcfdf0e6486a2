//===- TileBuilder.cpp - building blocks of the mma form ------------------===//

#include "TileBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::detail;

Value TileBuilder::idx(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value TileBuilder::add(Value a, Value c) {
  return arith::AddIOp::create(b, loc, a, c);
}
Value TileBuilder::mul(Value a, int64_t c) {
  if (c == 1)
    return a;
  return arith::MulIOp::create(b, loc, a, idx(c));
}
Value TileBuilder::mul(Value a, Value c) {
  return arith::MulIOp::create(b, loc, a, c);
}
Value TileBuilder::min(Value a, Value c) {
  return arith::MinSIOp::create(b, loc, a, c);
}
Value TileBuilder::ceilDiv(Value a, int64_t c) {
  if (c == 1)
    return a;
  return ceilDiv(a, idx(c));
}
Value TileBuilder::ceilDiv(Value a, Value c) {
  Value q = arith::DivUIOp::create(b, loc, a, c);
  Value r = arith::RemUIOp::create(b, loc, a, c);
  Value hasRest =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, idx(0));
  Value one = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::ExtUIOp::create(b, loc, b.getI64Type(), hasRest));
  return add(q, one);
}

Type TileBuilder::accumulatorFor(Type elementType) {
  if (isa<IntegerType>(elementType))
    return IntegerType::get(elementType.getContext(), 32);
  return Float32Type::get(elementType.getContext());
}

VectorType TileBuilder::tileType(Type elementType) {
  return VectorType::get({kTileSize, kTileSize}, elementType);
}

Value TileBuilder::zeroAcc(Type dataElementType) {
  Type acc = accumulatorFor(dataElementType);
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tileType(acc), b.getZeroAttr(acc)));
}

Value TileBuilder::zeroAccLike(Value tile) {
  return zeroAcc(cast<VectorType>(tile.getType()).getElementType());
}

Value TileBuilder::mulConst(MatrixKind k, Value data, Value acc,
                            int64_t block) {
  return product(k, data, acc, /*constOnLeft=*/true, block);
}
Value TileBuilder::mulByConst(Value data, MatrixKind k, Value acc) {
  return product(k, data, acc, /*constOnLeft=*/false);
}

Value TileBuilder::product(MatrixKind k, Value data, Value acc,
                           bool constOnLeft, int64_t block) {
  auto dataType = cast<VectorType>(data.getType());
  Type elt = dataType.getElementType();
  auto mma = [&](Value part, Value accIn) -> Value {
    Type partElt = cast<VectorType>(part.getType()).getElementType();
    Value m = MatrixOp::create(b, loc, tileType(partElt), k, block);
    Type t = accIn.getType();
    return constOnLeft ? MMAOp::create(b, loc, t, m, part, accIn).getResult()
                       : MMAOp::create(b, loc, t, part, m, accIn).getResult();
  };
  // Narrow data is an operand as it is.
  if (elt.isF16() || elt.isBF16() || elt.isSignlessInteger(8))
    return mma(data, acc);

  // An accumulator times Ones only sums rows. Plain additions do that
  // exactly (i32, modulo 2^32) or with one f32 rounding per add, as the
  // accumulation of the split products does, for a fraction of the
  // instructions (docs/design.md#precision: small steps on f32 intermediates
  // may be f32 adds).
  if (k == MatrixKind::Ones && !constOnLeft) {
    Value sums = rowSums(data);
    // A zero accumulator adds nothing (canonicalization keeps x + 0.0,
    // which differs from x only for -0.0).
    if (matchPattern(acc, m_AnyZeroFloat()) || matchPattern(acc, m_Zero()))
      return sums;
    if (isa<FloatType>(elt))
      return arith::AddFOp::create(b, loc, sums, acc);
    return arith::AddIOp::create(b, loc, sums, acc);
  }

  if (elt.isF32()) {
    // x == hi + mid + lo exactly; add the small parts first.
    Type bf16 = b.getBF16Type();
    auto split = SplitOp::create(
        b, loc, TypeRange(SmallVector<Type>(3, tileType(bf16))), data);
    if (splitsCheckTiny)
      split.setCheckTiny(true);
    Value r = acc;
    for (int i = 2; i >= 0; --i)
      r = mma(split.getResult(i), r);
    return r;
  }

  // i32: x == sum_k d_k * 2^(7k) (mod 2^32). Horner: start from the top digit
  // and shift the running product left by 7 before adding the next digit's.
  assert(elt.isSignlessInteger(32) && "unexpected tile element type");
  Type i8 = b.getI8Type();
  auto split = SplitOp::create(
      b, loc, TypeRange(SmallVector<Type>(5, tileType(i8))), data);
  Value seven = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(tileType(b.getI32Type()), b.getI32IntegerAttr(7)));
  Value r = mma(split.getResult(4), zeroAcc(i8));
  for (int d = 3; d >= 0; --d) {
    Value shifted = arith::ShLIOp::create(b, loc, r, seven);
    r = mma(split.getResult(d), shifted);
  }
  return arith::AddIOp::create(b, loc, acc, r);
}

Value TileBuilder::loadTile(TileLayout layout, Value src, Value base,
                            Value stride, Value lineLength, Value limit,
                            ElementOrder order, Value from) {
  Type elt = cast<MemRefType>(src.getType()).getElementType();
  Value mirror = mirrorOf(src);
  return LoadTileOp::create(b, loc, tileType(elt), layout, src, base, stride,
                            lineLength, limit, from, mirror, order, loadHint);
}

void TileBuilder::storeTile(Value tile, Value dest, Value base, Value stride,
                            Value lineLength, Value limit, ElementOrder order,
                            Value from) {
  Value mirror = mirrorOf(dest);
  StoreTileOp::create(b, loc, tile, dest, base, stride, lineLength, limit, from,
                      mirror, order, storeHint);
}

PrefetchOp TileBuilder::prefetch(Value src, Value from, Value count) {
  Value point = mirrorOf(src);
  if (!point)
    return PrefetchOp::create(b, loc, src, from, count);
  // Logical [from, from + count) is physical (point - from - count,
  // point - from]; the padding part lies outside the buffer.
  Value end = arith::SubIOp::create(b, loc, add(point, idx(1)), from);
  Value start = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, count), idx(0));
  end = min(end, memref::DimOp::create(b, loc, src, 0));
  Value n = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, start), idx(0));
  return PrefetchOp::create(b, loc, src, start, n);
}

void TileBuilder::storeRow(Value tile, int64_t row, Value dest, Value base,
                           Value limit, bool accumulate, int64_t step) {
  assert(!mirrorOf(dest) && "store_row has no mirrored form");
  StoreRowOp::create(b, loc, tile, dest, base, limit, row, accumulate, step);
}

Value TileBuilder::rowSums(Value x, int64_t block) {
  return RowSumsOp::create(b, loc, x.getType(), x, block);
}

Value TileBuilder::element(Value tile, int64_t row, int64_t col) {
  Value x =
      vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{row, col});
  Type elt = x.getType();
  Type acc = accumulatorFor(elt);
  if (elt == acc)
    return x;
  if (isa<FloatType>(elt))
    return arith::ExtFOp::create(b, loc, acc, x);
  return arith::ExtSIOp::create(b, loc, acc, x);
}

Value TileBuilder::broadcast(Value scalar, Type accType) {
  return vector::BroadcastOp::create(b, loc, tileType(accType), scalar);
}

ValueRange
TileBuilder::forLoop(Value lb, Value ub, Value step, ValueRange init,
                     function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, init,
      [&](OpBuilder &nested, Location, Value iv, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        SmallVector<Value> next = body(iv, carried);
        scf::YieldOp::create(b, loc, next);
      });
  return loop.getResults();
}

scf::ParallelOp TileBuilder::parallel(Value ub,
                                      function_ref<void(Value)> body) {
  return scf::ParallelOp::create(
      b, loc, ValueRange{idx(0)}, ValueRange{ub}, ValueRange{idx(1)},
      [&](OpBuilder &nested, Location, ValueRange ivs) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        body(ivs[0]);
      });
}
