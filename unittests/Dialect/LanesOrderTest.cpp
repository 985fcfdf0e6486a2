//===- LanesOrderTest.cpp - the lanes element order -----------------------===//
//
// #tcu.order<lanes> puts the p-th element of a tile (line order) where GPU
// lane p / 8 holds its (p mod 8)-th slot, so that a lane's eight elements
// are consecutive in memory. The slot layout restated here is the lane
// fragment layout of compiler/lib/Conversion/TCUMMAToGPU/LaneFragments.h.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Dialect/TCU/TCUOps.h"

#include <gtest/gtest.h>

#include <array>

using namespace mlir;

namespace {

TEST(LanesOrderTest, PlacesAndElementsAreInversePermutations) {
  std::array<bool, 256> seen{};
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 16; ++col) {
      int p = tcu::lanesPlace(row, col);
      ASSERT_GE(p, 0);
      ASSERT_LT(p, 256);
      EXPECT_FALSE(seen[p]) << "place " << p << " taken twice";
      seen[p] = true;
      EXPECT_EQ(tcu::lanesElement(p), 16 * row + col);
    }
}

TEST(LanesOrderTest, EachLaneHoldsEightConsecutivePlaces) {
  for (int lane = 0; lane < 32; ++lane)
    for (int s = 0; s < 8; ++s) {
      // LaneFragments.h: lane 4g + t, slot s.
      int g = lane / 4, t = lane % 4;
      int row = g + 8 * ((s >> 1) & 1), col = 2 * t + (s & 1) + 8 * (s >> 2);
      EXPECT_EQ(tcu::lanesPlace(row, col), 8 * lane + s)
          << "lane " << lane << " slot " << s;
    }
  // The last place is the tile's element (15, 15), which the scans read
  // as the tile's last value whatever the order.
  EXPECT_EQ(tcu::lanesElement(255), 255);
  EXPECT_EQ(tcu::lanesElement(0), 0);
}

} // namespace
