//===- CostModel.cpp - tuned table first, analytic rule second ------------===//
//
// What the H100 sweep (bench/, 2026-11-22) showed, and so what this encodes:
// - short segments want the variants that put 16 segments in one tile
//   (seg16, seg16n_strided, seg16n): one warp then reads 256 consecutive
//   elements per tile instead of one segment's 16..255 elements with the
//   rest of the tile masked off;
// - mid-size segments want the work-efficient seg256n (one warp streams a
//   segment);
// - once there are too few segments to give every warp slot of the GPU
//   work, the grid variant (segments split across blocks, partials reduced
//   or scanned by a second kernel) wins: 1.03x over seg256n for a reduce at
//   2^14 (16384 segments), 137x at 2^24 (16 segments), in the first sweep
//   (docs/rationale.md#tuned-table).
// The table holds the measured winner per power-of-two segment size at
// n = 2^28; a segment between rows takes the next larger row.
//
//===----------------------------------------------------------------------===//

#include "tcuc/Strategy/CostModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::tcu;

namespace {

#define TCUC_TUNED(arch, op, in, out, segment, variant, tiles, warps)          \
  {arch, op, in, out, segment, variant, tiles, warps},
constexpr TunedRow kTunedRows[] = {
#include "TunedTables.inc"
};
#undef TCUC_TUNED

/// Tie-break order of tuneTable: the simpler variant first.
constexpr Variant kPreference[] = {
    Variant::Seg16,           Variant::Seg256,        Variant::Packed,
    Variant::Seg16N,          Variant::Seg16NStrided, Variant::Seg256N,
    Variant::Seg16NCoalesced, Variant::Block,         Variant::Grid,
    Variant::Lookback,        Variant::Lagged,        Variant::Stream,
    Variant::MatMulScan,      Variant::Balanced};

int preferenceOf(StringRef variant) {
  std::optional<Variant> v = symbolizeVariant(variant);
  for (auto [i, p] : llvm::enumerate(kPreference))
    if (v && *v == p)
      return int(i);
  return int(std::size(kPreference));
}

/// The element count the tuned tables were measured at (bench/, n = 2^28):
/// at that n a row's segment size also stands for a number of segments.
constexpr int64_t kTableN = int64_t(1) << 28;

/// Table element types for a query's: bf16 behaves as f16 (same width, same
/// mma), other combinations have no row.
std::string tableType(const std::string &t) { return t == "bf16" ? "f16" : t; }

std::optional<StrategyChoice> fromTable(const StrategyQuery &q,
                                        const std::string &arch,
                                        ArrayRef<TunedRow> rows) {
  std::string op = q.isScan ? "scan" : "reduce";
  std::string in = tableType(q.input), out = tableType(q.output);
  auto matches = [&](const TunedRow &r) {
    return arch == r.arch && op == r.op && in == r.input && out == r.output;
  };
  // The row size the query falls under: the smallest at least its segment,
  // else (larger than every row) the largest.
  int64_t bucket = 0, largest = 0;
  for (const TunedRow &r : rows) {
    if (!matches(r))
      continue;
    largest = std::max(largest, r.segment);
    if (r.segment >= q.segmentSize && (!bucket || r.segment < bucket))
      bucket = r.segment;
  }
  if (!bucket)
    bucket = largest;
  // Of that size's rows, the first whose variant serves the query (a
  // variant of only some sizes, packed, comes with a row for the others)
  // and, for a variant fixed by the user, measured that variant.
  for (const TunedRow &r : rows) {
    if (!bucket || !matches(r) || r.segment != bucket)
      continue;
    std::optional<Variant> v = symbolizeVariant(r.variant);
    if (!v || !isVariantApplicable(*v, q.isScan, q.segmentSize))
      continue;
    if (q.variant && *q.variant != *v)
      continue;
    return StrategyChoice{*v, r.tilesPerWarp, r.warpsPerBlock,
                          "tuned " + arch + " table, " + op + " " + in + "->" +
                              out + " segment row " +
                              std::to_string(r.segment)};
  }
  return std::nullopt;
}

StrategyChoice analytic(const StrategyQuery &q) {
  int64_t s = q.segmentSize;
  auto pick = [](Variant v, const char *why) {
    return StrategyChoice{v, 1, 0, std::string("analytic: ") + why};
  };
  // A single-pass scan fixed by the caller where the table has no row of it
  // (the table has each measured variant's best row, but both were swept
  // only from 2^22, and f32 input never) would get the rule's one tile.
  // Each has its own measured best instead (docs/rationale.md#analytic-rule):
  // - lookback (16 warps), wherever it makes chunks: 4 tiles, 2 for f32
  //   input, whose tiles take twice the registers. Up to 16 warps · 4 tiles
  //   it may fall back to the block scan, whose rule is one tile.
  // - lagged (4 warps): 2 tiles; bf16 on sm_80 takes 4, where ptxas spills
  //   at 2.
  if (q.variant == Variant::Lookback && s > 16 * 4 * 256) {
    int64_t tiles = q.input == "f32" ? 2 : 4;
    return StrategyChoice{*q.variant, tiles, 0,
                          "analytic: lookback given; " + std::to_string(tiles) +
                              " tiles in flight"};
  }
  if (q.variant == Variant::Lagged) {
    int64_t tiles = q.input == "bf16" && q.arch == "sm_80" ? 4 : 2;
    return StrategyChoice{*q.variant, tiles, 0,
                          "analytic: lagged given; " + std::to_string(tiles) +
                              " tiles in flight"};
  }
  if (q.variant)
    return pick(*q.variant, "variant given; one tile in flight");
  if (q.isScan) {
    if (s <= 64)
      return pick(Variant::Seg16N, "segment <= 64: 16 segments per tile");
    if (s <= 256)
      return pick(Variant::Seg256, "segment <= 256: one tile per segment");
    if (s <= 65536)
      return pick(Variant::Seg256N, "segment <= 65536: a warp per segment");
    if (s <= (int64_t(1) << 21))
      return pick(Variant::Block,
                  "segment <= 2^21: a block of 4-16 warps per segment");
    return pick(Variant::Grid, "segment > 2^21: segments split over blocks");
  }
  if (s <= 16)
    return pick(Variant::Seg16, "segment <= 16: 16 segments per tile");
  if (s <= 128)
    return pick(Variant::Seg16NStrided,
                "segment <= 128: 16 segments per tile, strided");
  if (s <= 256)
    return pick(Variant::Seg16NCoalesced,
                "segment <= 256: whole 256-chunks, strided rest");
  if (s <= 8192)
    return pick(Variant::Seg256N, "segment <= 8192: a warp per segment");
  return pick(Variant::Grid, "segment > 8192: segments split over blocks");
}

} // namespace

bool mlir::tcu::hasBuiltinRows(StringRef key) {
  return llvm::any_of(kTunedRows,
                      [&](const TunedRow &r) { return r.arch == key; });
}

std::string mlir::tcu::elementTypeName(Type type) {
  // MLIR's own spelling is the table's (and the runtime's dtypeName).
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
}

StrategyChoice mlir::tcu::selectStrategy(const StrategyQuery &q,
                                         ArrayRef<TunedRow> table) {
  // The GPU model's rows, then the arch's, each from a loaded table first,
  // then the built-in one. No table for an arch yet: use the sm_90 one (the
  // H100's, the first GPU measured), then the analytic rule.
  SmallVector<std::string, 3> keys;
  if (!q.gpu.empty())
    keys.push_back(q.gpu);
  keys.push_back(q.arch);
  if (q.arch != "sm_90")
    keys.push_back("sm_90");
  std::optional<StrategyChoice> choice;
  for (auto [i, key] : llvm::enumerate(keys)) {
    if ((choice = fromTable(q, key, table)))
      choice->reason = "loaded " + choice->reason;
    else
      choice = fromTable(q, key, kTunedRows);
    if (choice) {
      if (i > 0)
        choice->reason += " (no " + keys.front() + " table)";
      break;
    }
  }
  if (!choice)
    choice = analytic(q);
  // A known n with fewer segments than the table's row had at kTableN:
  // whether one warp a segment still keeps the GPU busy is what the row
  // with as few segments measured. Where that row chose a variant that
  // spreads a segment over several warps (block, grid, lagged), so does
  // this query. The 4096-element floor (shorter segments are not worth
  // splitting) is a judgement, not a measurement.
  if (q.n && !q.variant && choice->variant != Variant::Grid &&
      q.segmentSize > 4096) {
    int64_t segments = std::max<int64_t>(1, *q.n / q.segmentSize +
                                                (*q.n % q.segmentSize != 0));
    int64_t likeSegments = kTableN / segments;
    if (likeSegments > q.segmentSize) {
      StrategyQuery like = q;
      like.n.reset();
      like.segmentSize = likeSegments;
      Variant spread = selectStrategy(like, table).variant;
      if ((spread == Variant::Grid || spread == Variant::Block ||
           spread == Variant::Lagged) &&
          spread != choice->variant) {
        // The tiles per warp of a row of that variant for this segment
        // size, if the table has one (the other variant's tiles were
        // measured for it).
        StrategyQuery other = q;
        other.variant = spread;
        other.n.reset();
        StrategyChoice c = selectStrategy(other, table);
        c.reason = "n = " + std::to_string(*q.n) + " gives " +
                   std::to_string(segments) +
                   " segments; the table's row with as few (segment " +
                   std::to_string(likeSegments) + " at n = 2^28) chose " +
                   stringifyVariant(spread).str();
        return c;
      }
    }
  }
  return *choice;
}

/// Whether `variant` serves every segment size in [lo, hi].
static bool servesAll(Variant variant, bool isScan, int64_t lo, int64_t hi) {
  for (int64_t s = lo; s <= hi; ++s)
    if (!isVariantApplicable(variant, isScan, s))
      return false;
  return true;
}

std::vector<TunedRow> mlir::tcu::tuneTable(ArrayRef<Measurement> measurements,
                                           const std::string &arch) {
  using Key = std::tuple<std::string, std::string, std::string, int64_t>;
  std::map<Key, std::vector<const Measurement *>> cells;
  for (const Measurement &m : measurements)
    if (m.ms > 0)
      cells[{m.op, m.input, m.output, m.segment}].push_back(&m);
  // The fastest of `timed` that `keep` accepts; within 1% a tie, broken
  // toward fewer tiles per warp (less code: a tile group is unrolled, and
  // the JIT's compile and the driver's load grow with it; seg256n scans at
  // 4 tiles compile in ~0.9 s against ~0.3 s at 1, 2026-11-27), then the
  // simpler variant, then fewer warps.
  auto fastestOf = [](ArrayRef<const Measurement *> timed,
                      function_ref<bool(const Measurement &)> keep) {
    const Measurement *best = nullptr;
    double fastest = 0;
    for (const Measurement *m : timed)
      if (keep(*m) && (fastest == 0 || m->ms < fastest))
        fastest = m->ms;
    auto rank = [](const Measurement *x) {
      return std::make_tuple(x->tilesPerWarp, preferenceOf(x->variant),
                             x->warpsPerBlock);
    };
    for (const Measurement *m : timed)
      if (keep(*m) && m->ms <= 1.01 * fastest &&
          (!best || rank(m) < rank(best)))
        best = m;
    return best;
  };
  auto rowOf = [&](const Measurement *m) {
    return TunedRow{arch,       m->op,      m->input,        m->output,
                    m->segment, m->variant, m->tilesPerWarp, m->warpsPerBlock};
  };
  std::vector<TunedRow> rows;
  const Measurement *previous = nullptr;
  for (auto &[key, timed] : cells) {
    const Measurement *best =
        fastestOf(timed, [](const Measurement &) { return true; });
    size_t cellStart = rows.size();
    rows.push_back(rowOf(best));
    // The row stands for the sizes above the previous row of its op and
    // types. Where the fastest variant serves only some of them (packed:
    // multiples of 16), the next row of the same size is the fastest that
    // serves them all.
    bool sameGroup = previous && previous->op == best->op &&
                     previous->input == best->input &&
                     previous->output == best->output;
    int64_t lo = sameGroup ? previous->segment + 1 : 1;
    bool isScan = best->op == "scan";
    auto servesRow = [&](const Measurement &m) {
      std::optional<Variant> v = symbolizeVariant(m.variant);
      return v && servesAll(*v, isScan, lo, m.segment);
    };
    if (!servesRow(*best))
      if (const Measurement *general = fastestOf(timed, servesRow))
        rows.push_back(rowOf(general));
    // Then each other variant measured here, its fastest configuration:
    // the row of a caller who fixes that variant (fromTable takes the first
    // row of the fixed variant). A query that fixes none stops at the rows
    // above, which serve every size of the row.
    for (Variant v : kPreference) {
      StringRef name = stringifyVariant(v);
      if (llvm::any_of(ArrayRef(rows).drop_front(cellStart),
                       [&](const TunedRow &r) { return r.variant == name; }))
        continue;
      if (const Measurement *m = fastestOf(
              timed, [&](const Measurement &x) { return x.variant == name; }))
        rows.push_back(rowOf(m));
    }
    previous = best;
  }
  return rows;
}

std::string mlir::tcu::formatTunedRow(const TunedRow &r) {
  return ("TCUC_TUNED(\"" + r.arch + "\", \"" + r.op + "\", \"" + r.input +
          "\", \"" + r.output + "\", " + Twine(r.segment) + ", \"" + r.variant +
          "\", " + Twine(r.tilesPerWarp) + ", " + Twine(r.warpsPerBlock) + ")")
      .str();
}

bool mlir::tcu::parseTunedTable(StringRef text, std::vector<TunedRow> &rows,
                                std::string &error) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (auto [i, raw] : llvm::enumerate(lines)) {
    StringRef line = raw.trim();
    if (line.empty() || line.starts_with("//"))
      continue;
    auto fail = [&, i = i](const std::string &why) {
      error = "line " + std::to_string(i + 1) + ": " + why;
      return false;
    };
    if (!line.consume_front("TCUC_TUNED(") || !line.consume_back(")"))
      return fail("expected TCUC_TUNED(arch, op, in, out, segment, variant, "
                  "tiles, warps) or a // comment");
    SmallVector<StringRef> f;
    line.split(f, ',');
    if (f.size() != 7 && f.size() != 8)
      return fail("expected 8 fields (7 without warps), got " +
                  std::to_string(f.size()));
    for (int k : {0, 1, 2, 3, 5}) {
      f[k] = f[k].trim();
      if (!f[k].consume_front("\"") || !f[k].consume_back("\""))
        return fail("field " + std::to_string(k + 1) + " must be quoted");
    }
    TunedRow r{f[0], f[1], f[2], f[3], 0, f[5], 0, 0};
    if (f[4].trim().getAsInteger(10, r.segment) || r.segment < 1)
      return fail("segment must be an integer >= 1");
    if (f[6].trim().getAsInteger(10, r.tilesPerWarp) || r.tilesPerWarp < 1 ||
        r.tilesPerWarp > 8)
      return fail("tiles per warp must be in 1..8");
    if (f.size() == 8 &&
        (f[7].trim().getAsInteger(10, r.warpsPerBlock) || r.warpsPerBlock < 0 ||
         r.warpsPerBlock > 16 || (r.warpsPerBlock & (r.warpsPerBlock - 1))))
      return fail("warps per block must be 0 (the variant's rule) or a "
                  "power of two up to 16");
    if (r.warpsPerBlock && !(symbolizeVariant(r.variant) &&
                             takesWarpsPerBlock(*symbolizeVariant(r.variant))))
      return fail("warps per block other than 0 need variant \"block\", "
                  "\"lookback\" or \"lagged\"");
    if (r.op != "reduce" && r.op != "scan")
      return fail("op must be \"reduce\" or \"scan\"");
    if (!symbolizeVariant(r.variant))
      return fail("unknown variant \"" + r.variant.str() + "\"");
    rows.push_back(r);
  }
  return true;
}
