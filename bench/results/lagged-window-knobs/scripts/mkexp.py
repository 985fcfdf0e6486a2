import sys
name, lagmb, emode = sys.argv[1], sys.argv[2], sys.argv[3]
s = open('/tmp/SV.orig').read()
s = s.replace("constexpr int64_t kLagBytes = int64_t(8) << 20;", f"constexpr int64_t kLagBytes = int64_t({lagmb}) << 20;")
old = "arith::DivUIOp::create(b, loc, lag, tb.idx(2))"
assert old in s
if emode == "q":
    s = s.replace(old, "arith::DivUIOp::create(b, loc, lag, tb.idx(4))")
elif emode == "3q":
    s = s.replace(old, "arith::SubIOp::create(b, loc, lag, arith::DivUIOp::create(b, loc, lag, tb.idx(4)))")
open('compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp', 'w').write(s)
