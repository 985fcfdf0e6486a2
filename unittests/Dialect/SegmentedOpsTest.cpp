//===- SegmentedOpsTest.cpp - tcu collective ops from C++ ----------------===//

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

using namespace mlir;

namespace {

class SegmentedOpsTest : public ::testing::Test {
protected:
  SegmentedOpsTest() {
    context.loadDialect<tcu::TCUDialect, func::FuncDialect,
                        memref::MemRefDialect>();
  }

  /// Builds `func @f(%in, %out) { <collective> }` and returns whether it
  /// verifies; the first diagnostic's text lands in `lastError`.
  bool buildAndVerify(Type inType, Type outType, int64_t segmentSize,
                      bool scan) {
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    ModuleOp module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module.getBody());
    auto func = func::FuncOp::create(b, loc, "f",
                                     b.getFunctionType({inType, outType}, {}));
    Block *body = func.addEntryBlock();
    b.setInsertionPointToEnd(body);
    auto kind = tcu::CombinerKind::Add;
    if (scan)
      tcu::SegmentedScanOp::create(
          b, loc, kind, body->getArgument(0), body->getArgument(1),
          /*dynamic_segment_size=*/Value(), /*offsets=*/Value(), segmentSize,
          /*inclusive=*/true,
          /*variant=*/tcu::VariantAttr(),
          /*tiles_per_warp=*/IntegerAttr(),
          /*warps_per_block=*/IntegerAttr(),
          /*schedule=*/tcu::ChainScheduleAttr(), /*reverse=*/false,
          /*decay=*/FloatAttr(), /*decay_value=*/Value(), /*decays=*/Value(),
          /*decay_form=*/tcu::DecayFormAttr(),
          /*walk_schedule=*/tcu::WalkScheduleAttr());
    else
      tcu::SegmentedReduceOp::create(
          b, loc, kind, body->getArgument(0), body->getArgument(1),
          /*dynamic_segment_size=*/Value(), /*offsets=*/Value(), segmentSize,
          /*variant=*/tcu::VariantAttr(),
          /*tiles_per_warp=*/IntegerAttr(),
          /*warps_per_block=*/IntegerAttr());
    func::ReturnOp::create(b, loc);

    lastError.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (lastError.empty())
        lastError = diag.str();
      return success();
    });
    bool ok = succeeded(verify(module));
    module->erase();
    return ok;
  }

  MemRefType memref(int64_t n, Type elementType) {
    return MemRefType::get({n}, elementType);
  }

  MLIRContext context;
  std::string lastError;
};

TEST_F(SegmentedOpsTest, NumSegmentsIsCeilDivisionWithoutOverflow) {
  EXPECT_EQ(tcu::getNumSegments(0, 16), 0);
  EXPECT_EQ(tcu::getNumSegments(1, 16), 1);
  EXPECT_EQ(tcu::getNumSegments(16, 16), 1);
  EXPECT_EQ(tcu::getNumSegments(17, 16), 2);
  EXPECT_EQ(tcu::getNumSegments(1000, 7), 143);
  EXPECT_EQ(tcu::getNumSegments(5, 4097), 1);
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(tcu::getNumSegments(max, 1), max);
  EXPECT_EQ(tcu::getNumSegments(max, 2), max / 2 + 1);
  EXPECT_EQ(tcu::getNumSegments(max, max), 1);
}

TEST_F(SegmentedOpsTest, AccumulatorTypes) {
  Builder b(&context);
  EXPECT_EQ(tcu::getAccumulatorType(b.getF16Type()), b.getF32Type());
  EXPECT_EQ(tcu::getAccumulatorType(b.getBF16Type()), b.getF32Type());
  EXPECT_EQ(tcu::getAccumulatorType(b.getF32Type()), b.getF32Type());
  EXPECT_EQ(tcu::getAccumulatorType(b.getI8Type()), b.getI32Type());
  EXPECT_FALSE(tcu::getAccumulatorType(b.getF64Type()));
  EXPECT_FALSE(tcu::getAccumulatorType(b.getI32Type()));
  EXPECT_FALSE(tcu::getAccumulatorType(
      IntegerType::get(&context, 8, IntegerType::Unsigned)));
}

TEST_F(SegmentedOpsTest, ReduceBuiltFromCppVerifies) {
  Builder b(&context);
  EXPECT_TRUE(buildAndVerify(memref(1000, b.getF16Type()),
                             memref(63, b.getF32Type()), 16, false))
      << lastError;
  EXPECT_TRUE(buildAndVerify(memref(ShapedType::kDynamic, b.getI8Type()),
                             memref(ShapedType::kDynamic, b.getI32Type()), 7,
                             false))
      << lastError;
}

TEST_F(SegmentedOpsTest, ReduceRejectsWrongOutputLength) {
  Builder b(&context);
  EXPECT_FALSE(buildAndVerify(memref(1000, b.getF16Type()),
                              memref(62, b.getF32Type()), 16, false));
  EXPECT_NE(lastError.find("ceil(1000 / 16) = 63 segments"), std::string::npos)
      << lastError;
}

TEST_F(SegmentedOpsTest, ScanRejectsZeroSegmentSize) {
  Builder b(&context);
  EXPECT_FALSE(buildAndVerify(memref(64, b.getBF16Type()),
                              memref(64, b.getBF16Type()), 0, true));
  EXPECT_NE(lastError.find("segment_size must be >= 1, got 0"),
            std::string::npos)
      << lastError;
}

TEST_F(SegmentedOpsTest, ParsedScanRoundTripsItsMode) {
  const char *source = R"mlir(
    func.func @f(%in: memref<48xf16>, %out: memref<48xf32>) {
      tcu.segmented_scan <add> exclusive %in into %out segment_size 48
          : memref<48xf16> -> memref<48xf32>
      return
    })mlir";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  ASSERT_TRUE(module);
  tcu::SegmentedScanOp scan;
  module->walk([&](tcu::SegmentedScanOp op) { scan = op; });
  ASSERT_TRUE(scan);
  EXPECT_FALSE(scan.getInclusive());
  EXPECT_EQ(scan.getSegmentSize(), 48);
  EXPECT_EQ(scan.getKind(), tcu::CombinerKind::Add);
}

} // namespace
