//===- DecayPowers.h - decay matrix entries computed in a kernel -*- C++
//-*-===//
//
// A decayed scan whose decay is given at run time (`decay %a`) builds its
// decay matrices (tcu.decay_matrix with a value) in the kernel. Both
// backends and convert-tcu-to-mma compute the powers a^k and their f16/bf16
// parts through these helpers only, in f64 as DecayMatrixOp::entry computes
// them for a constant decay, so the two backends agree.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_CONVERSION_DECAYPOWERS_H
#define TCUC_CONVERSION_DECAYPOWERS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

namespace mlir::tcu::decay_powers {

/// Powers of a decay matrix are below 2^9 (the largest, Carry's, is 256).
constexpr int kPowerBits = 9;

/// a^k in f64 for a constant k >= 0 (a the f32 scalar): squarings, and a
/// product for each set bit of k.
inline Value buildConstantPower(OpBuilder &b, Location loc, Value a,
                                int64_t k) {
  Value base = arith::ExtFOp::create(b, loc, b.getF64Type(), a);
  Value power = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(1.0));
  for (; k > 0; k >>= 1) {
    if (k & 1)
      power = arith::MulFOp::create(b, loc, power, base);
    if (k > 1)
      base = arith::MulFOp::create(b, loc, base, base);
  }
  return power;
}

/// a^k rounded to f32 as a grid's chunk decay (k the chunk length): where
/// it underflows to 0 but a is not 0, the smallest subnormal of its sign.
/// A chunk's infinite carry then stays infinite, as the sequential f32
/// loop keeps it (a * Inf), where 0 would make it NaN; a finite carry h
/// adds at most |h| * 2^-149, and that loop also keeps h at +-2^-149 once
/// it gets there for |a| > 1/2 (docs/algorithms.md#decayed-nan-inf).
inline float chunkPower(float a, int64_t k) {
  float power = static_cast<float>(std::pow(double(a), double(k)));
  if (power == 0 && a != 0)
    power = std::copysign(std::numeric_limits<float>::denorm_min(), power);
  return power;
}
/// chunkPower's rule in a kernel: `power` (f32, or a vector of f32) where
/// it is not 0 or `a` (an f32 scalar) is 0, else the smallest subnormal
/// of its sign.
inline Value keepNonzero(OpBuilder &b, Location loc, Value power, Value a) {
  Type type = power.getType(), i32 = b.getI32Type();
  auto shaped = dyn_cast<VectorType>(type);
  auto like = [&](Type t) -> Type { return shaped ? shaped.clone(t) : t; };
  auto splat = [&](Value v) -> Value {
    return shaped ? vector::BroadcastOp::create(b, loc, like(v.getType()), v)
                        .getResult()
                  : v;
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value underflows = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, power,
                            splat(zero)),
      splat(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, a, zero)));
  // +-0 with its lowest bit set is +-2^-149.
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value tiny = arith::BitcastOp::create(
      b, loc, type,
      arith::OrIOp::create(b, loc,
                           arith::BitcastOp::create(b, loc, like(i32), power),
                           splat(one)));
  return arith::SelectOp::create(b, loc, underflows, tiny, power);
}
/// chunkPower in a kernel (`a` an f32 value; a^k in f64, then rounded).
inline Value buildChunkPower(OpBuilder &b, Location loc, Value a, int64_t k) {
  return keepNonzero(b, loc,
                     arith::TruncFOp::create(b, loc, b.getF32Type(),
                                             buildConstantPower(b, loc, a, k)),
                     a);
}
/// A constant of `type` (f64, or a vector of it) holding `v`.
inline Value buildF64(OpBuilder &b, Location loc, Type type, double v) {
  Attribute value = b.getF64FloatAttr(v);
  if (auto shaped = dyn_cast<ShapedType>(type))
    value = DenseElementsAttr::get(shaped, value);
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(value));
}

/// a^k in f64 (elementwise where `k`, i32 in [0, 2^kPowerBits), is a
/// vector): binary powering of a, whose f64 products keep a^k within a few
/// f64 ulps, far below what the three f16 parts hold. a^0 = 1, also for
/// a = 0. `a` is an f32 scalar.
inline Value buildPower(OpBuilder &b, Location loc, Value a, Value k) {
  Type f64 = b.getF64Type();
  Type type = f64;
  if (auto shaped = dyn_cast<VectorType>(k.getType()))
    type = shaped.clone(f64);
  Value base = arith::ExtFOp::create(b, loc, f64, a);
  if (type != f64)
    base = vector::BroadcastOp::create(b, loc, type, base);
  Value power = buildF64(b, loc, type, 1.0);
  Type kType = k.getType();
  Type i1 = b.getI1Type();
  Type bitType =
      isa<VectorType>(kType) ? Type(cast<VectorType>(kType).clone(i1)) : i1;
  for (int bit = 0; bit < kPowerBits; ++bit) {
    Value shift = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(getElementTypeOrSelf(kType), bit));
    if (isa<VectorType>(kType))
      shift = vector::BroadcastOp::create(b, loc, kType, shift);
    Value set = arith::TruncIOp::create(
        b, loc, bitType, arith::ShRUIOp::create(b, loc, k, shift));
    power = arith::SelectOp::create(
        b, loc, set, arith::MulFOp::create(b, loc, power, base), power);
    if (bit + 1 < kPowerBits)
      base = arith::MulFOp::create(b, loc, base, base);
  }
  return power;
}

/// Part `part` of 2^scale · a^k rounded to `elt` (DecayMatrixOp::entry's
/// rule: f32 holds the value rounded; f16/bf16 part p rounds what parts
/// 0..p-1 left; bf16 through f32), 0 where `valid` (i1, k's shape; null:
/// everywhere) is false.
inline Value buildEntries(OpBuilder &b, Location loc, Value a, Value k,
                          Value valid, int64_t part, int64_t scale, Type elt) {
  Value v = buildPower(b, loc, a, k);
  Type type = v.getType();
  if (scale != 0)
    v = arith::MulFOp::create(b, loc, v,
                              buildF64(b, loc, type, std::ldexp(1.0, scale)));
  if (valid)
    v = arith::SelectOp::create(b, loc, valid, v, buildF64(b, loc, type, 0.0));
  auto shapedLike = [&](Type t) -> Type {
    if (auto shaped = dyn_cast<VectorType>(type))
      return shaped.clone(t);
    return t;
  };
  Type target = shapedLike(elt), f32 = shapedLike(b.getF32Type());
  // bf16 goes through f32: neither the CPU JIT (no __truncdfbf2 in GCC
  // 12's libgcc) nor sm_80 (no cvt.bf16.f64) converts f64 to it directly.
  // The two roundings differ from one only at a tie of the first, and the
  // next part takes what this one leaves either way.
  auto round = [&](Value x) -> Value {
    if (!elt.isBF16())
      return arith::TruncFOp::create(b, loc, target, x);
    Value narrow = arith::TruncFOp::create(b, loc, f32, x);
    return arith::TruncFOp::create(b, loc, target, narrow);
  };
  auto widen = [&](Value x) -> Value {
    if (!elt.isBF16())
      return arith::ExtFOp::create(b, loc, type, x);
    Value wide = arith::ExtFOp::create(b, loc, f32, x);
    return arith::ExtFOp::create(b, loc, type, wide);
  };
  Value rounded = round(v);
  for (int64_t p = 0; p < part; ++p) {
    // v - rounded is exact in f64 (the parts have few bits).
    v = arith::SubFOp::create(b, loc, v, widen(rounded));
    rounded = round(v);
  }
  return rounded;
}

} // namespace mlir::tcu::decay_powers

#endif // TCUC_CONVERSION_DECAYPOWERS_H
