//===- QuadsOrderTest.cpp - the quads element order and its scan matrix ---===//
//
// #tcu.order<quads> puts line position p in column quadsColumn(p); a row
// loaded so, times UQuads (UstrictQuads), must be the inclusive (exclusive)
// scan of the line in memory order, read back through the same columns.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Dialect/TCU/TCUOps.h"

#include <gtest/gtest.h>

#include <array>

using namespace mlir;

namespace {

TEST(QuadsOrderTest, PositionsAndColumnsAreInversePermutations) {
  std::array<bool, 16> seen{};
  for (int c = 0; c < 16; ++c) {
    int p = tcu::quadsPosition(c);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, 16);
    EXPECT_FALSE(seen[p]) << "position " << p << " taken twice";
    seen[p] = true;
    EXPECT_EQ(tcu::quadsColumn(p), c);
  }
  // An mma lane t holds columns 2t, 2t+1, 2t+8, 2t+9 of a row: they must
  // be the four consecutive positions 4t .. 4t+3, in that order.
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(tcu::quadsPosition(2 * t), 4 * t);
    EXPECT_EQ(tcu::quadsPosition(2 * t + 1), 4 * t + 1);
    EXPECT_EQ(tcu::quadsPosition(2 * t + 8), 4 * t + 2);
    EXPECT_EQ(tcu::quadsPosition(2 * t + 9), 4 * t + 3);
  }
}

TEST(QuadsOrderTest, UQuadsScansTheLineInMemoryOrder) {
  std::array<int, 16> line; // memory order, distinct powers of two
  for (int p = 0; p < 16; ++p)
    line[p] = 1 << p;
  std::array<int, 16> row; // the loaded row: column c holds position q(c)
  for (int c = 0; c < 16; ++c)
    row[c] = line[tcu::quadsPosition(c)];
  for (bool inclusive : {true, false}) {
    tcu::MatrixKind kind =
        inclusive ? tcu::MatrixKind::UQuads : tcu::MatrixKind::UstrictQuads;
    int sum = 0;
    for (int p = 0; p < 16; ++p) {
      if (inclusive)
        sum += line[p];
      int c = tcu::quadsColumn(p);
      int product = 0; // (row · U)[c]
      for (int k = 0; k < 16; ++k)
        product += row[k] * tcu::matrixEntry(kind, k, c);
      EXPECT_EQ(product, sum) << "position " << p << " inclusive " << inclusive;
      if (!inclusive)
        sum += line[p];
    }
  }
}

} // namespace
