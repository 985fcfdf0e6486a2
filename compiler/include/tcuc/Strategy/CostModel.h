//===- CostModel.h - which algorithm variant runs fastest -------*- C++ -*-===//
//
// The cost model behind tcu-select-strategy: for (op, element types,
// segment size, n when known, arch) it picks the variant the GPU runs
// fastest and the tiles each warp keeps in flight. A tuned table per arch
// (measured by bench/, TunedTables.inc) answers first; an analytic rule answers
// what the table does not cover.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_STRATEGY_COSTMODEL_H
#define TCUC_STRATEGY_COSTMODEL_H

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

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
  /// A variant fixed by the user: only the tiles per warp are chosen.
  std::optional<Variant> variant;
};

struct StrategyChoice {
  Variant variant = Variant::Seg256N;
  /// Tiles a warp keeps in flight (tiles_per_warp).
  int64_t tilesPerWarp = 1;
  /// Why: which table row or which analytic rule decided.
  std::string reason;
};

/// The variant to lower `query` with; always applicable to it.
StrategyChoice selectStrategy(const StrategyQuery &query);

/// "f16", "bf16", "f32", "i8", "i32", or "" for other types.
std::string elementTypeName(Type type);

} // namespace mlir::tcu

#endif // TCUC_STRATEGY_COSTMODEL_H
