"""Stall samples and executed instructions of an ncu source page (sass_NAME.csv.gz): totals, hot lines, opcode mix."""
import collections, csv, gzip, os, sys
name = sys.argv[1] if len(sys.argv) > 1 else "lagged44"
rows = list(csv.reader(gzip.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), f"sass_{name}.csv.gz"), "rt")))
hdr = rows[1]; data = [r for r in rows[2:] if len(r) >= len(hdr)]
idx = {h: i for i, h in enumerate(hdr)}
stalls = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
num = lambda r, h: int(r[idx[h]]) if r[idx[h]].isdigit() else 0
tot = collections.Counter(); ops = collections.Counter(); instr = samples = 0
for r in data:
    for s in stalls: tot[s] += num(r, s)
    ie = num(r, "Instructions Executed"); instr += ie; samples += num(r, "# Samples")
    op = r[idx["Source"]].split()
    if op:
        o = op[0] if not op[0].startswith("@") else op[1]
        ops[o.split(".")[0]] += ie
print(f"== {name}: samples {samples}, warp instructions executed {instr}")
for s, v in tot.most_common(10): print(f"  {s:26s} {v:8d} {100*v/samples:5.1f}%")
print("  opcode mix (warp instructions executed):")
for o, v in ops.most_common(30): print(f"   {o:10s} {v:11d} {100*v/instr:5.1f}%")
print("  hot lines:")
for n, r in sorted(enumerate(data), key=lambda x: -num(x[1], "# Samples"))[:25]:
    st = sorted(((s[6:], num(r, s)) for s in stalls if num(r, s)), key=lambda x: -x[1])[:3]
    print(f"   {num(r,'# Samples'):6d} L{n:5d} x{num(r,'Instructions Executed'):8d} {r[idx['Source']].strip()[:60]:60s} {st}")
