//===- CostModelTest.cpp - tcu-select-strategy's cost model ---------------===//

#include "tcuc/Strategy/CostModel.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mlir::tcu;

namespace {

StrategyQuery query(bool scan, const char *in, const char *out, int64_t segment,
                    const char *arch = "sm_90") {
  StrategyQuery q;
  q.isScan = scan;
  q.input = in;
  q.output = out;
  q.segmentSize = segment;
  q.arch = arch;
  return q;
}

// Whatever the table or the rules say, the choice must lower the collective:
// every segment size, op and type combination gets an applicable variant.
TEST(CostModel, ChoiceIsAlwaysApplicable) {
  const char *types[][2] = {{"f16", "f32"},   {"bf16", "f32"}, {"f16", "f16"},
                            {"bf16", "bf16"}, {"f32", "f32"},  {"i8", "i32"}};
  for (bool scan : {false, true})
    for (auto &t : types)
      for (const char *arch : {"sm_80", "sm_90"})
        for (int64_t s :
             {int64_t(1), int64_t(7), int64_t(16), int64_t(17), int64_t(100),
              int64_t(255), int64_t(256), int64_t(257), int64_t(1000),
              int64_t(4097), int64_t(1) << 24, (int64_t(1) << 24) + 1,
              int64_t(1) << 40}) {
          StrategyChoice c = selectStrategy(query(scan, t[0], t[1], s, arch));
          std::string why;
          EXPECT_TRUE(isVariantApplicable(c.variant, scan, s, &why))
              << (scan ? "scan " : "reduce ") << t[0] << "->" << t[1]
              << " segment " << s << " on " << arch << ": "
              << stringifyVariant(c.variant).str() << " (" << why
              << "), chosen by " << c.reason;
          EXPECT_FALSE(c.reason.empty());
        }
}

// Tiles per warp come with the row: within 1..8 always; 1 for an analytic
// choice; a fixed variant keeps the row's tiles only if the row measured
// that variant.
TEST(CostModel, TilesPerWarpComeFromTheRow) {
  for (bool scan : {false, true})
    for (int64_t s : {int64_t(16), int64_t(1000), int64_t(1) << 20}) {
      StrategyChoice c = selectStrategy(query(scan, "f16", "f32", s));
      EXPECT_GE(c.tilesPerWarp, 1);
      EXPECT_LE(c.tilesPerWarp, 8);
    }
  EXPECT_EQ(selectStrategy(query(false, "f32", "f32", 1000)).tilesPerWarp, 1);
  StrategyQuery q = query(false, "f16", "f32", 1000);
  StrategyChoice row = selectStrategy(q);
  q.variant = row.variant;
  StrategyChoice same = selectStrategy(q);
  EXPECT_EQ(same.variant, row.variant);
  EXPECT_EQ(same.tilesPerWarp, row.tilesPerWarp);
  q.variant = Variant::Block;
  StrategyChoice other = selectStrategy(q);
  EXPECT_EQ(other.variant, Variant::Block);
  EXPECT_EQ(other.tilesPerWarp, 1);
}

// A segment between two table rows takes the larger row; the reason names
// the row, so the lookup is visible.
TEST(CostModel, TableRowRoundsUp) {
  StrategyChoice c = selectStrategy(query(false, "f16", "f32", 1000));
  EXPECT_NE(c.reason.find("segment row 1024"), std::string::npos) << c.reason;
  c = selectStrategy(query(false, "f16", "f32", 1024));
  EXPECT_NE(c.reason.find("segment row 1024"), std::string::npos) << c.reason;
  c = selectStrategy(query(false, "f16", "f32", 1025));
  EXPECT_NE(c.reason.find("segment row 2048"), std::string::npos) << c.reason;
}

// Beyond the largest row: that row's choice (lagged for f16->f32 scans, the
// grid for the other scans of the sweep, run 15).
TEST(CostModel, HugeSegmentsUseTheLastRow) {
  StrategyChoice c =
      selectStrategy(query(true, "f16", "f32", int64_t(1) << 40));
  EXPECT_EQ(c.variant, Variant::Lagged) << c.reason;
  // 4 tiles since tcuc 0.6.24's table (bench/results/tile-runs).
  EXPECT_EQ(c.tilesPerWarp, 4) << c.reason;
  EXPECT_NE(c.reason.find("segment row 16777216"), std::string::npos)
      << c.reason;
  c = selectStrategy(query(true, "i8", "i32", int64_t(1) << 40));
  EXPECT_EQ(c.variant, Variant::Grid) << c.reason;
  EXPECT_NE(c.reason.find("segment row 16777216"), std::string::npos)
      << c.reason;
}

// Types without rows (f32 input, i8 reductions) use the analytic rule.
TEST(CostModel, AnalyticRuleWithoutRows) {
  StrategyChoice c = selectStrategy(query(false, "i8", "i32", 16));
  EXPECT_EQ(c.variant, Variant::Seg16);
  EXPECT_EQ(c.reason.rfind("analytic", 0), 0u) << c.reason;
  c = selectStrategy(query(true, "f32", "f32", 1 << 20));
  EXPECT_EQ(c.variant, Variant::Block);
  EXPECT_EQ(c.reason.rfind("analytic", 0), 0u) << c.reason;
  c = selectStrategy(query(true, "f32", "f32", 1 << 22));
  EXPECT_EQ(c.variant, Variant::Grid);
  EXPECT_EQ(c.reason.rfind("analytic", 0), 0u) << c.reason;
}

// A known n with few long segments goes to the grid; a short one stays.
TEST(CostModel, FewSegmentsOfAStaticNUseTheGrid) {
  StrategyQuery q = query(false, "f16", "f32", 8000);
  EXPECT_EQ(selectStrategy(q).variant, Variant::Seg256N);
  q.n = 1000000; // 125 segments
  EXPECT_EQ(selectStrategy(q).variant, Variant::Grid);
  q.segmentSize = 1000; // 1000 segments of 1000: too short to split
  EXPECT_EQ(selectStrategy(q).variant, Variant::Seg256N);
}

// With as many segments as a row where one warp a segment still won (a
// reduction of 2^28 in segments of 8192: 32768 segments, seg256n), a
// static n keeps the query's own row; where the row with as few segments
// spread a segment over warps (grid for reductions from 16384, lagged for
// f16->f32 scans from 2^22; block in a table whose 2^18 row chose it), so
// does the query.
TEST(CostModel, StaticNFollowsTheRowWithAsManySegments) {
  StrategyQuery q = query(false, "f16", "f32", 8000);
  q.n = int64_t(8000) << 15;
  EXPECT_EQ(selectStrategy(q).variant, Variant::Seg256N)
      << selectStrategy(q).reason;
  q.n = int64_t(8000) * 1024;
  EXPECT_EQ(selectStrategy(q).variant, Variant::Grid)
      << selectStrategy(q).reason;

  q = query(true, "f16", "f32", 8000);
  q.n = int64_t(8000) * 32;
  EXPECT_EQ(selectStrategy(q).variant, Variant::Lagged)
      << selectStrategy(q).reason;
  q = query(true, "i8", "i32", 8000);
  q.n = int64_t(8000) * 32;
  EXPECT_EQ(selectStrategy(q).variant, Variant::Grid)
      << selectStrategy(q).reason;
  q = query(true, "f16", "f32", 8000);
  std::vector<TunedRow> rows = {
      {"sm_90", "scan", "f16", "f32", 8192, "seg256n", 2},
      {"sm_90", "scan", "f16", "f32", 262144, "block", 2}};
  q.n = int64_t(8000) << 15;
  EXPECT_EQ(selectStrategy(q, rows).variant, Variant::Seg256N)
      << selectStrategy(q, rows).reason;
  q.n = int64_t(8000) * 1024;
  EXPECT_EQ(selectStrategy(q, rows).variant, Variant::Block)
      << selectStrategy(q, rows).reason;
}

} // namespace

namespace {
// A table file round-trips through formatTunedRow and parseTunedTable, and
// its rows are consulted before the built-in ones; bad lines name
// themselves.
TEST(CostModel, TableFilesRoundTrip) {
  TunedRow row{"sm_90", "reduce", "f16", "f32", 1024, "grid", 3};
  std::string text = "// a comment\n" + formatTunedRow(row) + "\n";
  std::vector<TunedRow> rows;
  std::string error;
  ASSERT_TRUE(parseTunedTable(text, rows, error)) << error;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(formatTunedRow(rows[0]), formatTunedRow(row));
  StrategyChoice c = selectStrategy(query(false, "f16", "f32", 1000), rows);
  EXPECT_EQ(c.variant, Variant::Grid);
  EXPECT_EQ(c.tilesPerWarp, 3);
  EXPECT_EQ(c.reason.rfind("loaded ", 0), 0u) << c.reason;

  for (const char *bad :
       {"TCUC_TUNED(\"sm_90\", \"reduce\", \"f16\", \"f32\", 16, \"fast\", 1)",
        "TCUC_TUNED(\"sm_90\", \"reduce\", \"f16\", \"f32\", 16, \"seg16\", 9)",
        "TCUC_TUNED(\"sm_90\", \"sort\", \"f16\", \"f32\", 16, \"seg16\", 1)",
        "TCUC_TUNED(sm_90, \"reduce\", \"f16\", \"f32\", 16, \"seg16\", 1)",
        // Warps per block: a power of two up to 16, and only for block.
        "TCUC_TUNED(\"sm_90\", \"scan\", \"f16\", \"f32\", 16, \"block\", 1, "
        "12)",
        "TCUC_TUNED(\"sm_90\", \"scan\", \"f16\", \"f32\", 16, \"block\", 1, "
        "32)",
        "TCUC_TUNED(\"sm_90\", \"scan\", \"f16\", \"f32\", 16, \"grid\", 1, 8)",
        "seg16 at 16"}) {
    rows.clear();
    EXPECT_FALSE(parseTunedTable(std::string("// ok\n") + bad, rows, error))
        << bad;
    EXPECT_EQ(error.rfind("line 2: ", 0), 0u) << error;
  }
}

// A variant that serves only some sizes of its row (packed: multiples of 16)
// brings a second row of the same size, the fastest variant serving all of
// them; a lookup takes the first row of its size that serves the query.
TEST(CostModel, RowsForSomeSizesComeWithAGeneralRow) {
  std::vector<Measurement> m = {
      {"scan", "f16", "f32", 16, "seg16", 1, 1.0},
      {"scan", "f16", "f32", 16, "packed", 1, 1.005}, // a tie: seg16
      {"scan", "f16", "f32", 64, "packed", 1, 0.5},
      {"scan", "f16", "f32", 64, "seg256", 1, 0.9},
      {"scan", "f16", "f32", 64, "seg16n", 2, 0.7},
      {"scan", "f16", "f32", 256, "packed", 1, 0.5},
      {"scan", "f16", "f32", 256, "seg256", 2, 0.5},
  };
  const std::string arch = "sm_90"; // the rows view it
  std::vector<TunedRow> rows = tuneTable(m, arch);
  std::vector<std::string> text;
  for (const TunedRow &r : rows)
    text.push_back(formatTunedRow(r));
  // Each size's default rows, then each other measured variant's fastest.
  std::vector<std::string> expected = {
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 16, "seg16", 1, 0))",
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 16, "packed", 1, 0))",
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 64, "packed", 1, 0))",
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 64, "seg16n", 2, 0))",
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 64, "seg256", 1, 0))",
      // 256: a tie, packed at 1 tile before seg256 at 2 (fewer tiles),
      // then seg256 again as the row serving every size in (64, 256].
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 256, "packed", 1, 0))",
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 256, "seg256", 2, 0))",
  };
  EXPECT_EQ(text, expected);

  auto pick = [&](int64_t segment) {
    StrategyChoice c = selectStrategy(query(true, "f16", "f32", segment), rows);
    EXPECT_EQ(c.reason.rfind("loaded ", 0), 0u) << c.reason;
    return std::make_pair(c.variant, c.tilesPerWarp);
  };
  EXPECT_EQ(pick(48), std::make_pair(Variant::Packed, int64_t(1)));
  EXPECT_EQ(pick(64), std::make_pair(Variant::Packed, int64_t(1)));
  EXPECT_EQ(pick(50), std::make_pair(Variant::Seg16N, int64_t(2)));
  EXPECT_EQ(pick(100), std::make_pair(Variant::Seg256, int64_t(2)));
  // A fixed variant takes the row that measured it, also where it was not
  // the fastest.
  StrategyQuery q = query(true, "f16", "f32", 64);
  q.variant = Variant::Seg16N;
  EXPECT_EQ(selectStrategy(q, rows).tilesPerWarp, 2);
  q.variant = Variant::Seg256;
  StrategyChoice c = selectStrategy(q, rows);
  EXPECT_EQ(c.variant, Variant::Seg256);
  EXPECT_EQ(c.tilesPerWarp, 1);
  EXPECT_EQ(c.reason.rfind("loaded ", 0), 0u) << c.reason;
  q = query(true, "f16", "f32", 16);
  q.variant = Variant::Packed;
  c = selectStrategy(q, rows);
  EXPECT_EQ(c.variant, Variant::Packed);
  EXPECT_EQ(c.reason.rfind("loaded tuned sm_90 table", 0), 0u) << c.reason;
}
// Within 1% fewer tiles per warp win before the simpler variant: a kernel
// of fewer tiles is less code for the JIT to compile and the driver to load.
TEST(CostModel, TiesGoToFewerTilesThenTheSimplerVariant) {
  std::vector<Measurement> m = {
      {"scan", "f16", "f32", 1024, "seg256n", 4, 1.0},
      {"scan", "f16", "f32", 1024, "block", 1, 1.008, 4}, // a tie: 1 tile
      {"scan", "f16", "f32", 1024, "seg256n", 1, 1.02},   // > 1%: not a tie
      {"scan", "f16", "f32", 2048, "seg256n", 2, 1.0},
      {"scan", "f16", "f32", 2048, "block", 2, 1.005, 4}, // same tiles: seg256n
  };
  std::vector<TunedRow> rows = tuneTable(m, "sm_90");
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(
      formatTunedRow(rows[0]),
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 1024, "block", 1, 4))");
  auto first2048 =
      std::find_if(rows.begin(), rows.end(),
                   [](const TunedRow &r) { return r.segment == 2048; });
  ASSERT_NE(first2048, rows.end());
  EXPECT_EQ(
      formatTunedRow(*first2048),
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 2048, "seg256n", 2, 0))");
}

// Warps per block: measured per row for the block variant, carried by the
// choice, kept out of other variants, and parsed from tables written before
// the field existed (7 fields: the variant's rule).
TEST(CostModel, WarpsPerBlockComeFromTheBlockRow) {
  std::vector<Measurement> m = {
      {"scan", "f16", "f32", 65536, "block", 2, 1.0, 4},
      {"scan", "f16", "f32", 65536, "block", 2, 0.95, 16},
      {"scan", "f16", "f32", 65536, "block", 2, 0.945, 8}, // tie: 8 < 16
      {"scan", "f16", "f32", 65536, "seg256n", 2, 1.2, 0},
  };
  const std::string arch = "sm_90";
  std::vector<TunedRow> rows = tuneTable(m, arch);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(
      formatTunedRow(rows[0]),
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 65536, "block", 2, 8))");
  EXPECT_EQ(
      formatTunedRow(rows[1]),
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 65536, "seg256n", 2, 0))");
  StrategyChoice c = selectStrategy(query(true, "f16", "f32", 65536), rows);
  EXPECT_EQ(c.variant, Variant::Block);
  EXPECT_EQ(c.warpsPerBlock, 8);
  // A fixed variant other than block gets no warps from any row.
  StrategyQuery q = query(true, "f16", "f32", 65536);
  q.variant = Variant::Seg256N;
  EXPECT_EQ(selectStrategy(q, rows).warpsPerBlock, 0);

  std::vector<TunedRow> old;
  std::string error;
  ASSERT_TRUE(parseTunedTable(
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 65536, "block", 2))", old,
      error))
      << error;
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(old[0].warpsPerBlock, 0);
}

// lookback without a table row: 4 tiles (2 for f32) once it makes chunks
// of 16 warps · 4 tiles; shorter segments fall back to the block scan at
// one tile.
TEST(CostModel, LookbackGivenTakesFourTilesForLongSegments) {
  StrategyQuery q = query(true, "f16", "f32", 1 << 20);
  q.variant = Variant::Lookback;
  StrategyChoice c = selectStrategy(q, {});
  EXPECT_EQ(c.variant, Variant::Lookback);
  EXPECT_EQ(c.tilesPerWarp, 4) << c.reason;
  // f32 input: 2 (4 spill).
  q.input = "f32";
  EXPECT_EQ(selectStrategy(q, {}).tilesPerWarp, 2);
  q.input = "f16";
  q.segmentSize = 16 * 4 * 256;
  c = selectStrategy(q, {});
  EXPECT_EQ(c.variant, Variant::Lookback);
  EXPECT_EQ(c.tilesPerWarp, 1) << c.reason;
}

// lagged without a table row: 2 tiles (4 measured slower for f16) for
// every input at any segment size, but bf16 on sm_80.
TEST(CostModel, LaggedGivenTakesTwoTiles) {
  // f16 -> f32 has no lagged row below 2^16: the analytic rule.
  StrategyQuery q = query(true, "f16", "f32", 1 << 15);
  q.variant = Variant::Lagged;
  StrategyChoice c = selectStrategy(q, {});
  EXPECT_EQ(c.variant, Variant::Lagged);
  EXPECT_EQ(c.tilesPerWarp, 2) << c.reason;
  EXPECT_EQ(c.warpsPerBlock, 0) << c.reason;
  // i8 -> i32 was swept there (run 19): its row, 4 tiles and 4 warps.
  StrategyQuery i8 = query(true, "i8", "i32", 1 << 16);
  i8.variant = Variant::Lagged;
  StrategyChoice r = selectStrategy(i8, {});
  EXPECT_EQ(r.tilesPerWarp, 4) << r.reason;
  EXPECT_EQ(r.warpsPerBlock, 4) << r.reason;
  // From 2^16 f16 -> f32 has lagged rows (lagged-8warps/sweep): 4 tiles of
  // 8 warps.
  StrategyQuery wide = query(true, "f16", "f32", 1 << 16);
  wide.variant = Variant::Lagged;
  StrategyChoice w = selectStrategy(wide, {});
  EXPECT_EQ(w.tilesPerWarp, 4) << w.reason;
  EXPECT_EQ(w.warpsPerBlock, 8) << w.reason;
  q.input = "f32";
  q.output = "f32";
  EXPECT_EQ(selectStrategy(q, {}).tilesPerWarp, 2);
  // bf16 on sm_80 spills at 2 (ptxas 13.0): 4 there, 2 on sm_90.
  q.input = "bf16";
  EXPECT_EQ(selectStrategy(q, {}).tilesPerWarp, 2);
  q.arch = "sm_80";
  EXPECT_EQ(selectStrategy(q, {}).tilesPerWarp, 4);
}

TEST(CostModel, LookbackRowsCarryWarpsOthersRefuseThem) {
  std::vector<TunedRow> rows;
  std::string error;
  ASSERT_TRUE(parseTunedTable(
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 4194304, "lookback", 4, 16))",
      rows, error))
      << error;
  StrategyChoice c = selectStrategy(query(true, "f16", "f32", 4194304), rows);
  EXPECT_EQ(c.variant, Variant::Lookback);
  EXPECT_EQ(c.tilesPerWarp, 4);
  EXPECT_EQ(c.warpsPerBlock, 16);
  // Warps on a variant whose warps do not share a segment: an error.
  std::vector<TunedRow> bad;
  EXPECT_FALSE(parseTunedTable(
      R"(TCUC_TUNED("sm_90", "scan", "f16", "f32", 4194304, "grid", 4, 16))",
      bad, error));
  EXPECT_NE(error.find("need variant \"block\", \"lookback\" or \"lagged\""),
            std::string::npos)
      << error;
}

} // namespace
