//===- TicketPrefetchOps.cpp - tcu.ticket and tcu.prefetch on the GPU -----===//
//
// The two single-warp operations of the single-pass scans: the ticket a
// work item takes from a global counter (one lane's atomic add, shared by
// shuffles), and the L2 prefetch of a range the lanes split line by line.
//
//===----------------------------------------------------------------------===//

#include "WarpBuilder.h"

#include "tcuc/Dialect/TCU/TCUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tcu;
using namespace mlir::tcu::gpu_lowering;

namespace {

/// tcu.ticket: lane 0 adds 1 to the counter; every lane gets the old value.
/// The atomic names the global space (the counter is device memory): on a
/// generic address ptxas adds a test of the address's space, a
/// shared-memory CAS loop and local-memory spills around the global atomic
/// (docs/rationale.md). The look-back words' relaxed loads and stores are
/// native on a generic address and stay generic.
struct LowerTicket : OpConversionPattern<TicketOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TicketOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    WarpBuilder h{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    Value addr = h.address(adaptor.getCounter(), adaptor.getIndex());
    auto ifOp = scf::IfOp::create(
        rewriter, loc, h.cmp(arith::CmpIPredicate::eq, h.lane(), h.i32(0)),
        [&](OpBuilder &b, Location l) {
          WarpBuilder t{b, l};
          scf::YieldOp::create(b, l,
                               t.ptx(b.getI64Type(), {addr, t.i64(1)},
                                     "{ .reg .b64 g; cvta.to.global.u64 g, "
                                     "$1; atom.relaxed.gpu.global.add.u64 $0, "
                                     "[g], $2; }"));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, WarpBuilder{b, l}.i64(0));
        });
    Value ticket = ifOp.getResult(0);
    // Shuffles move 32 bits: the two halves, from lane 0.
    Value low = h.fromLane(
        arith::TruncIOp::create(rewriter, loc, rewriter.getI32Type(), ticket),
        0);
    Value high = h.fromLane(
        arith::TruncIOp::create(
            rewriter, loc, rewriter.getI32Type(),
            arith::ShRUIOp::create(rewriter, loc, ticket, h.i64(32))),
        0);
    Value word = arith::OrIOp::create(
        rewriter, loc,
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(), low),
        arith::ShLIOp::create(
            rewriter, loc,
            arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(), high),
            h.i64(32)));
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    word);
    return success();
  }
};

/// tcu.prefetch: the lanes take the range's 128-byte lines in turn, lane l
/// lines l, l + 32, ...; each issues `prefetch.L2` (with `cache
/// <evict_last>`: `prefetch.global.L2::evict_last` on the global address)
/// for an address inside the range on that line (the range's own first and
/// last bytes at its ends, so no address falls outside the buffer).
struct LowerPrefetch : OpConversionPattern<PrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    WarpBuilder h{rewriter, loc};
    Type i64 = rewriter.getI64Type();
    bool keep = op.getCache() == CacheHint::EvictLast;
    Value base = h.address(adaptor.getBuffer(), adaptor.getOffset());
    Value length = h.bytes(adaptor.getBuffer(), adaptor.getCount());
    Value last = arith::SubIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, base, length),
        h.i64(1));
    auto line = [&](Value address) -> Value {
      return arith::ShRUIOp::create(rewriter, loc, address, h.i64(7));
    };
    // Lines from base's to last's (none when count is 0: last < base).
    Value lines = arith::SelectOp::create(
        rewriter, loc, h.cmp(arith::CmpIPredicate::sgt, length, h.i64(0)),
        arith::AddIOp::create(
            rewriter, loc,
            arith::SubIOp::create(rewriter, loc, line(last), line(base)),
            h.i64(1)),
        h.i64(0));
    Value lane = arith::ExtUIOp::create(rewriter, loc, i64, h.lane());
    scf::ForOp::create(
        rewriter, loc, lane, lines, h.i64(32), ValueRange{},
        [&](OpBuilder &b, Location l, Value i, ValueRange) {
          WarpBuilder w{b, l};
          Value start = arith::AddIOp::create(
              b, l, arith::ShLIOp::create(b, l, line(base), w.i64(7)),
              arith::ShLIOp::create(b, l, i, w.i64(7)));
          Value address = arith::MinUIOp::create(
              b, l, arith::MaxUIOp::create(b, l, start, base), last);
          w.ptx(Type(), {address},
                keep ? "{ .reg .b64 g; cvta.to.global.u64 g, $0; "
                       "prefetch.global.L2::evict_last [g]; }"
                     : "prefetch.L2 [$0];");
          scf::YieldOp::create(b, l);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpu_lowering::populateTicketPrefetchPatterns(const TypeConverter &types,
                                                  RewritePatternSet &patterns) {
  patterns.add<LowerTicket, LowerPrefetch>(types, patterns.getContext());
}
