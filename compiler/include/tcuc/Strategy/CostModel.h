//===- CostModel.h - which algorithm variant runs fastest -------*- C++ -*-===//
//
// The cost model behind tcu-select-strategy: for (op, element types,
// segment size, n when known, arch) it picks the variant the GPU runs
// fastest, the tiles each warp keeps in flight and, for the block and
// look-back variants, the warps of a block. A tuned table per arch
// (measured by bench/, TunedTables.inc) answers first; an analytic rule answers
// what the table does not cover.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_STRATEGY_COSTMODEL_H
#define TCUC_STRATEGY_COSTMODEL_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tcu {

struct StrategyQuery {
  bool isScan = false;
  /// Element type names: "f16", "bf16", "f32", "i8", "i32".
  std::string input, output;
  int64_t segmentSize = 16;
  /// The element count when it is static.
  std::optional<int64_t> n;
  /// "sm_80", "sm_90", ...
  std::string arch = "sm_90";
  /// The GPU model ("h100", "h200", ...; tcuc::gpuModelOf): its own rows,
  /// where a table has them, come before the arch's. Empty: the arch's.
  std::string gpu;
  /// A variant fixed by the user: only its tiles and warps are chosen.
  std::optional<Variant> variant;
};

/// Whether the built-in tuned table has rows keyed `key` (an arch or a GPU
/// model).
bool hasBuiltinRows(llvm::StringRef key);

struct StrategyChoice {
  Variant variant = Variant::Seg256N;
  /// Tiles a warp keeps in flight (tiles_per_warp).
  int64_t tilesPerWarp = 1;
  /// Warps of a block (warps_per_block, block, lookback and lagged variants); 0
  /// leaves them to the variant's own rule.
  int64_t warpsPerBlock = 0;
  /// Why: which table row or which analytic rule decided.
  std::string reason;
};

/// One row of a tuned table: the fastest (variant, tiles per warp, warps per
/// block) measured
/// for an op, element types and power-of-two segment size on `arch`. The
/// strings are views: of literals for the built-in table (so it needs no
/// start-up work), of the text or measurements a table was made from.
struct TunedRow {
  llvm::StringRef arch, op, input, output;
  int64_t segment = 0;
  llvm::StringRef variant;
  int64_t tilesPerWarp = 1;
  /// 0: the variant's rule (and every variant but block).
  int64_t warpsPerBlock = 0;
};

/// The variant to lower `query` with; always applicable to it. Rows of
/// `table` (a table loaded at run time) are looked up before the built-in
/// rows (TunedTables.inc): the smallest row size at least the query's
/// segment (else the largest), and of that size's rows the first whose
/// variant serves the query.
StrategyChoice selectStrategy(const StrategyQuery &query,
                              llvm::ArrayRef<TunedRow> table = {});

/// One timing of one configuration (a bench/ results.csv line).
struct Measurement {
  std::string op, input, output; // "reduce"/"scan", element type names
  int64_t segment = 0;
  std::string variant;
  int64_t tilesPerWarp = 1;
  double ms = 0;
  /// Warps per block; 0 when the variant's rule chose them.
  int64_t warpsPerBlock = 0;
};

/// The tuned table of `arch` from `measurements` (rows view both): per (op,
/// types, segment),
/// the fastest configuration; configurations within 1% of it count as a
/// tie (run-to-run noise is about that), broken toward the simpler variant
/// (fewer kernels, less scratch), then fewer tiles per warp, then the
/// variant's rule for warps per block, then fewer warps. Sorted by op,
/// types and segment. A row stands for the sizes above the previous row of
/// its op and types; where its variant serves only some of them (packed:
/// multiples of 16), a second row of the same size follows with the fastest
/// variant that serves them all, which selectStrategy takes for the others.
/// Then each other variant measured at that size, its fastest configuration
/// (same tie rule), in the simpler-first order: what a caller who fixes the
/// variant gets.
std::vector<TunedRow> tuneTable(llvm::ArrayRef<Measurement> measurements,
                                const std::string &arch);

/// A row as a TunedTables.inc line: TCUC_TUNED("sm_90", ..., 2, 0).
std::string formatTunedRow(const TunedRow &row);
/// Parses TunedTables.inc text (comment lines and TCUC_TUNED rows) into rows
/// that view `text`; false with `error` naming the line for anything else,
/// or a row with an unknown variant, a segment < 1, tiles outside 1..8, or
/// warps per block not 0 or a power of two up to 16 (non-zero only for
/// block). The warps field may be left out (tables of tcuc 0.6 and older).
bool parseTunedTable(llvm::StringRef text, std::vector<TunedRow> &rows,
                     std::string &error);

/// The type as MLIR spells it: "f16", "bf16", "f32", "i8", "i32" (the
/// table's names), or another that no row names.
std::string elementTypeName(Type type);

/// What tcu-select-strategy left on the one tcu collective under `root`:
/// its variant, tiles per warp (1 when unset) and warps per block (0 when
/// unset: the variant's own rule), `reason` empty. None unless there is
/// exactly one collective and its variant is set. Drivers read it between
/// the strategy step and the lowering (tcu::runStrategyStep), so
/// they can say what ran without repeating the pass's rules.
std::optional<StrategyChoice> getChosenStrategy(Operation *root);

} // namespace mlir::tcu

#endif // TCUC_STRATEGY_COSTMODEL_H
