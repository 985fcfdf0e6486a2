//===- ChainSchedule.h - schedules of the single-pass scans -----*- C++ -*-===//
//
// The cost model's rules for #tcu.chain_schedule: how a look-back or lagged
// scan prefetches, lags, holds registers, orders its tiles and shares its
// tickets, as a function of its element types, tiles per warp and warps per
// block. tcu-select-strategy attaches the result; convert-tcu-to-mma only
// reads it.
//
//===----------------------------------------------------------------------===//

#ifndef TCUC_STRATEGY_CHAINSCHEDULE_H
#define TCUC_STRATEGY_CHAINSCHEDULE_H

#include "tcuc/Dialect/TCU/TCUOps.h"

namespace mlir::tcu {

/// The schedule a `variant` scan (lookback or lagged; null for the others)
/// of `input` -> `output` elements runs best with at `tilesPerWarp` tiles
/// and `warpsPerBlock` warps (0: the variant's default warps). Each rule's
/// measured reason: docs/rationale.md#lagged-knobs.
ChainScheduleAttr chooseChainSchedule(MLIRContext *ctx, Variant variant,
                                      Type input, Type output,
                                      int64_t tilesPerWarp,
                                      int64_t warpsPerBlock);

} // namespace mlir::tcu

#endif // TCUC_STRATEGY_CHAINSCHEDULE_H
