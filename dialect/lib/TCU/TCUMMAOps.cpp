//===- TCUMMAOps.cpp - verifiers of the mma-form operations ---------------===//

#include "tcuc/Dialect/TCU/TCUOps.h"

using namespace mlir;
using namespace mlir::tcu;

/// Element types a Tensor Core product takes as operands.
static bool isOperandType(Type t) {
  return t.isF16() || t.isBF16() || t.isSignlessInteger(8);
}

LogicalResult MatrixOp::verify() {
  Type t = getResult().getType().getElementType();
  if (!isOperandType(t))
    return emitOpError() << "constant matrices are mma operands: element type "
                            "must be f16, bf16 or i8, got "
                         << t;
  return success();
}

LogicalResult MMAOp::verify() {
  Type a = getLhs().getType().getElementType();
  Type b = getRhs().getType().getElementType();
  Type c = getAcc().getType().getElementType();
  if (a != b)
    return emitOpError() << "operands must have the same element type, got "
                         << a << " and " << b;
  if (!isOperandType(a))
    return emitOpError() << "operand element type must be f16, bf16 or i8 "
                            "(tcu.split an f32/i32 tile first), got "
                         << a;
  if (c != getAccumulatorType(a))
    return emitOpError() << "accumulator element type must be "
                         << getAccumulatorType(a) << " for " << a
                         << " operands, got " << c;
  return success();
}

LogicalResult SplitOp::verify() {
  Type src = getSource().getType().getElementType();
  unsigned expected = 0;
  Type part;
  if (src.isF32()) {
    expected = 3;
    part = BFloat16Type::get(getContext());
  } else if (src.isSignlessInteger(32)) {
    expected = 5;
    part = IntegerType::get(getContext(), 8);
  } else {
    return emitOpError() << "source element type must be f32 or i32, got "
                         << src;
  }
  if (getParts().size() != expected)
    return emitOpError() << "splitting " << src << " yields " << expected
                         << " parts, got " << getParts().size();
  for (Value p : getParts())
    if (cast<VectorType>(p.getType()).getElementType() != part)
      return emitOpError() << "parts of " << src << " must be " << part
                           << " tiles";
  return success();
}

static LogicalResult verifyBufferTile(Operation *op, MemRefType buffer,
                                      VectorType tile, bool isStore) {
  if (buffer.getRank() != 1 || !buffer.isLastDimUnitStride())
    return op->emitOpError("buffer must be a 1-D memref with unit stride");
  Type m = buffer.getElementType(), t = tile.getElementType();
  if (!isStore && m != t)
    return op->emitOpError()
           << "tile element type " << t << " must match the buffer's " << m;
  if (isStore && m != t && !(t.isF32() && isa<FloatType>(m)))
    return op->emitOpError() << "cannot store a " << t << " tile into " << m
                             << " (only f32 tiles convert, to a float type)";
  return success();
}

LogicalResult LoadTileOp::verify() {
  return verifyBufferTile(*this, cast<MemRefType>(getSource().getType()),
                          getResult().getType(), /*isStore=*/false);
}

LogicalResult StoreTileOp::verify() {
  return verifyBufferTile(*this, cast<MemRefType>(getDest().getType()),
                          getTile().getType(), /*isStore=*/true);
}

LogicalResult StoreRowOp::verify() {
  if (getRow() >= static_cast<uint64_t>(kTileSize))
    return emitOpError() << "row must be in [0, 16), got " << getRow();
  return verifyBufferTile(*this, cast<MemRefType>(getDest().getType()),
                          getTile().getType(), /*isStore=*/true);
}
