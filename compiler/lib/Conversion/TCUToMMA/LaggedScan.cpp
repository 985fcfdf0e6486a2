//===- LaggedScan.cpp - the lagged single-pass scan -----------------------===//
//
// The `lagged` variant of tcu.segmented_scan: each block reduces one chunk
// and scans the chunk drawn D tickets before, whose input is still in L2
// and whose prefix is ready (docs/algorithms.md, "Lagged scan").
//
//===----------------------------------------------------------------------===//

#include "ChainedScans.h"

#include "tcuc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;

namespace mlir::tcu::detail {

static constexpr int64_t T = kTileSize;

/// Lagged single pass (bench/prototypes/lagged_scan.cu has the schedule
/// worked out by hand): chunks of W · k tiles (W = warps_per_block, else
/// kLaggedWarps), over every segment in one ticket order. The block with
/// ticket t does two things at once: it reduces chunk t (read from DRAM)
/// and publishes the chunk's total, and it scans chunk t - D (D chunks =
/// schedule.lag_bytes of input, at most half the chunks), whose
/// input it read D tickets ago (so it mostly comes from L2) and whose
/// predecessors' totals were published about D tickets ago (so its look-back
/// rarely waits). The look-back scan instead holds its chunk while it waits for
/// its own prefix, and the grid scan reads the input twice from DRAM. Both
/// loads are issued before either is used: each warp loads its run of chunk t
/// and its run of chunk t - D, sums the first with Ones·A products and
/// scans the second as the block scan does (scanWarpRun), and
/// tcu.block_lagged_lookback exchanges both totals at one barrier,
/// publishes chunk t's aggregate, gives chunk t - D's prefix (from the
/// Fenwick words of tcu.block_lookback's tree) and completes chunk t - E's
/// Fenwick word. There are as many tickets as chunks plus D: the first D
/// tickets only reduce, the last D only scan. A block draws one ticket, or
/// (schedule.walk_tickets) walks tickets until they run out, each drawn
/// during the ticket before it. The state (a ticket counter, two
/// words per chunk) is zeroed by a first kernel and stays proportional to
/// the chunks, not to n. Every tuning choice comes from the schedule
/// (#tcu.chain_schedule; its defaults without one).
void scanLagged(TileBuilder &tb, const Collective &given) {
  OpBuilder &b = tb.builder();
  Location loc = tb.location();
  int64_t warps = given.warpsPerBlock ? given.warpsPerBlock : kLaggedWarps;
  int64_t k = given.tilesPerWarp;
  int64_t chunkLength = warps * k * T * T;
  if (given.segmentSize <= chunkLength)
    return scanBlock(tb, given);
  Collective c = given;
  c.warpsPerBlock = warps;
  ChainScheduleAttr schedule =
      c.schedule ? c.schedule : ChainScheduleAttr::get(b.getContext());
  c.scanOrder = schedule.getQuads() ? ElementOrder::Quads : ElementOrder::Fixed;
  Type elt = inputElementType(c.input);
  Type acc = TileBuilder::accumulatorFor(elt);
  ChainItems chain = chainItems(tb, c, chunkLength);
  Value perSegment = chain.perSegment, items = chain.items;
  int64_t ahead = prefetchChunksOf(c, schedule, chunkLength);
  // Half the chunks at most: a smaller input still overlaps its reads
  // and scans (and tests that path).
  Value lag =
      tb.min(tb.idx(chunksOfInput(c, chunkLength, schedule.getLagBytes())),
             tb.ceilDiv(items, 2));
  // Item t - E's Fenwick word is completed by ticket t: E = D / 2 (at
  // least 1) leaves D - E tickets before the scan of an item reads the
  // words of the items before it.
  Value completeLag = arith::MaxUIOp::create(
      b, loc, tb.idx(1), arith::DivUIOp::create(b, loc, lag, tb.idx(2)));
  // Where warp 0 reads the prefix's words early, the block meets once a
  // ticket when they were all published, so a ticket's totals can be
  // overwritten by the next ticket's before every warp has read them: the
  // tickets alternate two buffers.
  bool early = schedule.getReadEarly();
  int64_t totalsWidth = early ? 2 * warps + 2 : 2 * warps + 1;
  Value state = zeroedChainState(
      tb, tb.add(arith::MulIOp::create(b, loc, items, tb.idx(2)), tb.idx(1)));
  Value tickets = tb.add(items, lag);
  // One warp draws the next ticket while the others work: a block of one
  // warp has nothing to overlap the draw with.
  bool walks = schedule.getWalkTickets() && warps >= 2;
  Value blockItems =
      walks ? tb.min(tickets, tb.idx(schedule.getWalkingWarps() / warps))
            : tickets;
  auto blocks = tb.parallel(blockItems, [&](Value) {
    // The warps' scan totals, then their reduce totals, then the prefix.
    Value totals = memref::AllocOp::create(
        b, loc, MemRefType::get({early ? 2 * totalsWidth : totalsWidth}, acc));
    // Which of its three items ticket t has: it reduces chunk t, scans
    // chunk t - lag and completes chunk t - completeLag's word.
    using P = arith::CmpIPredicate;
    struct Roles {
      Value reduces, scans, completes;
    };
    auto rolesOf = [&](Value t) {
      return Roles{arith::CmpIOp::create(b, loc, P::ult, t, items),
                   arith::CmpIOp::create(b, loc, P::uge, t, lag),
                   arith::AndIOp::create(
                       b, loc,
                       arith::CmpIOp::create(b, loc, P::uge, t, completeLag),
                       arith::CmpIOp::create(b, loc, P::ult, t,
                                             tb.add(items, completeLag)))};
    };
    // A block without a chunk to reduce (to scan) takes chunk 0 with no
    // elements: its loads select nothing.
    // Items split into segment and chunk by the chunks of a whole segment,
    // a constant (a multiply and shifts), where warp 0 alone finds the
    // fields (share_items); else by min(that, ceil(n / chunkLength)), a
    // runtime 64-bit division. Exact either way: the two differ only when
    // n < S, where there is one segment and every item is below both.
    bool share = schedule.getShareItems();
    Value divisor = share
                        ? tb.idx((walkSpan(c) + chunkLength - 1) / chunkLength)
                        : perSegment;
    auto chunkOr0 = [&](Value has, Value item) {
      ChainChunk chunk = chainChunk(
          tb, c, arith::SelectOp::create(b, loc, has, item, tb.idx(0)), divisor,
          chunkLength);
      chunk.end = arith::SelectOp::create(b, loc, has, chunk.end, chunk.base);
      return chunk;
    };
    // The reduced and scanned items' fields, then the completed item's word
    // and first word (its elements are not read).
    auto itemFields = [&](Value t, const Roles &r) {
      ChainChunk completed =
          chunkOr0(r.completes, arith::SubIOp::create(b, loc, t, completeLag));
      SmallVector<Value> fields = chunkOr0(r.reduces, t).fields();
      llvm::append_range(
          fields,
          chunkOr0(r.scans, arith::SubIOp::create(b, loc, t, lag)).fields());
      fields.append({completed.word, completed.first});
      return fields;
    };
    // Warp 0 draws the ticket and, with share_items, finds the items'
    // fields once for the block; else every warp finds them.
    auto sharedFields = [&](Value t) { return itemFields(t, rolesOf(t)); };
    bool hasFrom = walkHasLowerBound(c);
    int64_t perChunk = ChainChunk::fieldCount(hasFrom);
    int64_t derived = share ? 2 * perChunk + 2 : 0;
    // One ticket's work: `drawn` is the ticket, then its fields where they
    // are shared. `drawNext(w)`, where given, runs in every warp w right
    // after the warp has issued its loads.
    auto ticketBody = [&](ArrayRef<Value> drawn,
                          function_ref<void(Value)> drawNext, Value parity) {
      Value totalsOffset = early ? tb.mul(parity, totalsWidth) : tb.idx(0);
      // (Named values: lambdas below capture them, and C++17 lambdas cannot
      // capture structured bindings.)
      Value t = drawn[0];
      Roles roles = rolesOf(t);
      Value reduces = roles.reduces, scans = roles.scans,
            completes = roles.completes;
      SmallVector<Value> fields =
          share ? SmallVector<Value>(ArrayRef(drawn).drop_front())
                : itemFields(t, roles);
      ChainChunk reduced =
          ChainChunk::of(ArrayRef(fields).slice(0, perChunk), hasFrom);
      ChainChunk scanned =
          ChainChunk::of(ArrayRef(fields).slice(perChunk, perChunk), hasFrom);
      Value completedWord = fields[2 * perChunk],
            completedFirst = fields[2 * perChunk + 1];
      tb.parallel(tb.idx(warps), [&](Value w) {
        Value runOffset = tb.mul(w, k * T * T);
        // The reduced run's loads first: all of them in flight together. Its
        // lines stay in L2 for the scan D tickets later (evict_last), which
        // reads them for the last time (evict_first) and streams its output.
        auto oldHints =
            tb.setCacheHints(CacheHint::EvictLast, CacheHint::Normal);
        SmallVector<Value> loaded;
        for (int64_t i = 0; i < k; ++i)
          loaded.push_back(tb.loadTile(
              TileLayout::Rows, c.input,
              tb.add(reduced.base, tb.add(runOffset, tb.idx(i * T * T))),
              tb.idx(T), tb.idx(T), reduced.end, ElementOrder::Tile,
              reduced.from));
        if (ahead) {
          // The warp's run of the input `ahead` chunks further on: the chunk
          // ticket t + ahead reduces where segments are whole chunks (a hint:
          // elsewhere it is near it), kept in L2 until its scan reads it.
          // Issued after this chunk's loads, the placement measured (ptxas -v
          // for f16->f32: 64 registers here and before the loads, 69 at the
          // ticket in warp 0, 68-93 at the block's end).
          Value from =
              tb.min(tb.add(reduced.base,
                            tb.add(runOffset, tb.idx(ahead * chunkLength))),
                     c.n);
          Value to = tb.min(tb.add(from, tb.idx(k * T * T)), c.n);
          Value count = arith::SelectOp::create(
              b, loc, reduces, arith::SubIOp::create(b, loc, to, from),
              tb.idx(0));
          tb.prefetch(c.input, from, count).setCache(CacheHint::EvictLast);
        }
        if (drawNext)
          drawNext(w);
        tb.setCacheHints(CacheHint::EvictFirst, CacheHint::Streaming);
        // The reduced run's total: summed at the exchange, or (sum_first)
        // right after the scanned run's loads, so that the loaded tiles'
        // registers are free during the scan.
        auto sumReduced = [&] {
          Value v = tb.zeroAcc(elt);
          for (Value a : loaded)
            v = tb.mulConst(MatrixKind::Ones, a, v);
          return tb.element(tb.rowSums(v), 0, 0);
        };
        bool sumsFirst = schedule.getSumFirst();
        Value reduceTotal, given;
        // Warp 0's early read of the scanned chunk's prefix words
        // (tcu.lagged_prefix); the other warps pass a published 0.
        auto readEarly = [&] {
          auto ifOp = scf::IfOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                    tb.idx(0)),
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(
                    b, loc,
                    LaggedPrefixOp::create(b, loc, b.getI64Type(), state,
                                           scanned.word, scanned.first, scans)
                        .getResult());
              },
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(
                    b, loc,
                    Value(arith::ConstantOp::create(
                        b, loc, b.getI64IntegerAttr(int64_t(1) << 32))));
              });
          given = ifOp.getResult(0);
        };
        scanWarpRun(
            tb, c, tb.add(scanned.base, runOffset), scanned.end, scanned.from,
            [&](Value runTotal) -> Value {
              if (!sumsFirst)
                reduceTotal = sumReduced();
              auto op = BlockLaggedLookbackOp::create(
                  b, loc, acc, acc, runTotal, reduceTotal, totals, totalsOffset,
                  w, b.getI64IntegerAttr(warps), state, reduced.word,
                  reduced.first, reduces, completedWord, completedFirst,
                  completes, scanned.word, scanned.first, scans, given);
              return addAcc(tb, op.getChunkPrefix(), op.getPrefix());
            },
            [&] {
              if (sumsFirst)
                reduceTotal = sumReduced();
              if (early)
                readEarly();
            });
        tb.setCacheHints(oldHints.first, oldHints.second);
      });
    };
    if (!walks) {
      ticketBody(drawTicket(tb, warps, state, derived,
                            share ? function_ref<SmallVector<Value>(Value)>(
                                        sharedFields)
                                  : nullptr),
                 nullptr, tb.idx(0));
      memref::DeallocOp::create(b, loc, totals);
      return;
    }
    // The block walks tickets until they run out. Warp 0 draws the first;
    // each later one is drawn during the ticket before it by warp 1 (one-warp
    // blocks draw one ticket each: see `walks`), right after its loads,
    // and left (with its fields, where shared) in one of two slots: ticket j of
    // the block reads slot j % 2, which the draw during ticket j - 1 wrote
    // before that ticket's last barrier, and which the next write (during
    // ticket j + 1) follows by at least ticket j's barriers. (A block given a
    // second block item, on a grid smaller than the items, draws that item's
    // first ticket into slot 0 while its other warps may still read slot 0 to
    // leave the loop: both tickets are past the last, so every warp leaves.)
    assert(warps >= 2 && "walking blocks need a second warp");
    int64_t width = 1 + derived;
    Value slots = memref::AllocOp::create(
        b, loc, MemRefType::get({2 * width}, b.getI64Type()));
    auto slot = [&](Value j) {
      return tb.mul(arith::RemUIOp::create(b, loc, j, tb.idx(2)), width);
    };
    function_ref<SmallVector<Value>(Value)> derive = nullptr;
    if (share)
      derive = sharedFields;
    auto drawInto = [&](Value at) {
      drawTicketInto(tb, state, slots, at, derive);
    };
    inFirstWarp(tb, warps, [&] { drawInto(tb.idx(0)); });
    scf::WhileOp::create(
        b, loc, TypeRange{b.getIndexType()}, ValueRange{tb.idx(0)},
        [&](OpBuilder &, Location, ValueRange j) {
          Value t = readTicketSlots(tb, slots, slot(j[0]), 1)[0];
          scf::ConditionOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                    tickets),
              j);
        },
        [&](OpBuilder &, Location, ValueRange j) {
          Value at = slot(j[0]);
          Value next = tb.add(j[0], tb.idx(1));
          ticketBody(
              readTicketSlots(tb, slots, at, width),
              [&](Value w) {
                auto ifOp = scf::IfOp::create(
                    b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, w,
                                          tb.idx(1)));
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(ifOp.thenBlock());
                drawInto(slot(next));
              },
              arith::RemUIOp::create(b, loc, j[0], tb.idx(2)));
          scf::YieldOp::create(b, loc, ValueRange{next});
        });
    memref::DeallocOp::create(b, loc, slots);
    memref::DeallocOp::create(b, loc, totals);
  });
  // Not for a reverse scan: its element-by-element mirrored accesses take
  // more registers than the cap leaves (ptxas spilled 200-300 bytes).
  if (int64_t blocksPerSM = schedule.getBlocksPerSm();
      blocksPerSM && !c.reverse)
    blocks->setAttr(kMinBlocksPerSMAttr, b.getI64IntegerAttr(blocksPerSM));
  // A warp's runs of reduced, scanned and stored tiles, each tested and
  // addressed once (kTileRunsAttr); the block scans keep one test a tile
  // (docs/rationale.md#tile-runs).
  markTileRuns(tb, blocks);
  memref::DeallocOp::create(b, loc, state);
}

} // namespace mlir::tcu::detail
