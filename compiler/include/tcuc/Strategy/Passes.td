//===- Passes.td - tcuc strategy passes --------------------*- tablegen -*-===//

#ifndef TCUC_STRATEGY_PASSES_TD
#define TCUC_STRATEGY_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCUSelectStrategy : Pass<"tcu-select-strategy", "ModuleOp"> {
  let summary = "Choose the algorithm variant, tiles per warp, warps per "
                "block and single-pass schedule of each collective (the cost "
                "model)";
  let description = [{
    Gives every `tcu.segmented_reduce` / `tcu.segmented_scan` without a
    `variant` the one the cost model expects to run fastest on `chip`
    (compiler/lib/Strategy/CostModel.cpp): the tuned table of that chip,
    measured by `bench/` (docs/performance.md), for the op, the element
    types and the segment size; an analytic rule where the table has no
    row; and the grid variant when a static element count leaves fewer
    segments than the GPU has warp slots. A variant already set is kept.
    Each choice comes with its row's `tiles_per_warp` (a fixed variant takes
    the row of its size that measured it, where the table has one; the
    analytic rule gives 1, or its measured best for `lookback` and `lagged`)
    and, for the `block`, `lookback` and `lagged` variants, its row's
    `warps_per_block` where the row measured one (else the variant's own
    rule applies); values already set are kept.
    Every `lookback` and `lagged` scan without a `schedule` gets the
    `#tcu.chain_schedule` the cost model's rules give for its element
    types, tiles and warps (compiler/lib/Strategy/ChainSchedule.cpp): its
    prefetch distance, lag, occupancy target, tile order and ticket
    sharing. The lowering reads them and chooses none itself.
    With `explain`, each choice is reported as a remark naming its reason.
    With `table`, the rows of that file (the format `tcuc tune` writes)
    are looked up before the built-in table, so a table measured on the
    user's GPU applies without rebuilding tcuc. With `gpu`, rows keyed by
    that GPU model (`tcuc tune --arch h200`) come before the rows of
    `chip`: two GPUs of one architecture (the H100 and the H200, both
    sm_90) can each have their table.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU (sm_80, sm_90, ...) whose tuned table is used">,
    Option<"gpu", "gpu", "std::string", /*default=*/"\"\"",
           "GPU model (h100, h200, ...) whose own rows come before the "
           "chip's, where a table has them">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark with each choice and its reason">,
    Option<"table", "table", "std::string", /*default=*/"\"\"",
           "A tuned table file (from `tcuc tune`) to consult first">,
    Option<"chooseTiles", "tiles", "bool", /*default=*/"true",
           "Also set tiles_per_warp and warps_per_block (false leaves unset "
           "ones to their defaults: the CPU backend gains nothing from them, "
           "they only cost compile time)">
  ];
}

#endif // TCUC_STRATEGY_PASSES_TD
