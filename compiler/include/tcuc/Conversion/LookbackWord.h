//===- LookbackWord.h - the look-back state word encoding -------*- C++ -*-===//
//
// A single-pass scan's items publish their sums as 64-bit state words,
// `flag << 32 | the 32 bits of the value`: a reader sees the flag and the
// value together in one access, so no fence is needed between them. Both
// backends (TCUMMAToLoops on the CPU, the look-back patterns on the GPU)
// read and write the words the same way, through these helpers only.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_LOOKBACKWORD_H
#define TCUC_CONVERSION_LOOKBACKWORD_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tcu::lookback_word {

/// The flag of a published word; a word whose flag is 0 is not published
/// yet (state buffers start zeroed).
constexpr int64_t kPublishedFlag = 1;

/// The word of a published 0: what a reader takes for a word it needs not
/// read.
constexpr int64_t kPublishedZero = kPublishedFlag << 32;

/// An i64 constant.
inline Value buildWordConstant(OpBuilder &b, Location loc, int64_t word) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(word));
}

/// The published word of `value` (an f32 or i32): kPublishedFlag << 32 |
/// its 32 bits.
inline Value buildPublishedWord(OpBuilder &b, Location loc, Value value) {
  if (isa<FloatType>(value.getType()))
    value = arith::BitcastOp::create(b, loc, b.getI32Type(), value);
  Value low = arith::ExtUIOp::create(b, loc, b.getI64Type(), value);
  return arith::OrIOp::create(b, loc, low,
                              buildWordConstant(b, loc, kPublishedZero));
}

/// The flag of `word` (an i64).
inline Value buildWordFlag(OpBuilder &b, Location loc, Value word) {
  return arith::ShRUIOp::create(b, loc, word, buildWordConstant(b, loc, 32));
}

/// Whether `word` is not published yet (its flag is 0).
inline Value buildWordIsPending(OpBuilder &b, Location loc, Value word) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               buildWordFlag(b, loc, word),
                               buildWordConstant(b, loc, 0));
}

/// Whether `word` is published (its flag is not 0).
inline Value buildWordIsPublished(OpBuilder &b, Location loc, Value word) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                               buildWordFlag(b, loc, word),
                               buildWordConstant(b, loc, 0));
}

/// The value of `word` as a `type` (f32 or i32): its low 32 bits.
inline Value buildWordValue(OpBuilder &b, Location loc, Value word, Type type) {
  Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), word);
  return type.isInteger(32)
             ? low
             : arith::BitcastOp::create(b, loc, type, low).getResult();
}

} // namespace mlir::tcu::lookback_word

#endif // TCUC_CONVERSION_LOOKBACKWORD_H
