"""Stall samples of the two ncu source pages (run 3): totals and top lines."""
import collections, csv, gzip, os
def load(name):
    rows = list(csv.reader(gzip.open(os.path.join(os.path.dirname(__file__), f"sass_{name}.csv.gz"), "rt")))
    hdr = rows[1]; data = rows[2:]
    idx = {h:i for i,h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    tot = collections.Counter(); instr = 0; samples = 0
    per = []
    for n, r in enumerate(data):
        if len(r) < len(hdr): continue
        for s in stalls:
            v = r[idx[s]]
            if v.isdigit(): tot[s] += int(v)
        ie = r[idx["Instructions Executed"]]
        instr += int(ie) if ie.isdigit() else 0
        sm = r[idx["# Samples"]]
        sm = int(sm) if sm.isdigit() else 0
        samples += sm
        per.append((sm, n, r[idx["Source"]].strip(), {s[6:]:int(r[idx[s]]) for s in stalls if r[idx[s]].isdigit() and int(r[idx[s]])>0}))
    return tot, instr, samples, per
for name in ("one-ticket", "walking"):
    tot, instr, samples, per = load(name)
    print(f"== {name}: samples {samples}, instructions executed {instr}")
    for s, v in tot.most_common(8):
        print(f"  {s:24s} {v:7d} {100*v/samples:5.1f}%")
    print("  top lines:")
    for sm, n, src, st in sorted(per, key=lambda x: -x[0])[:14]:
        top = sorted(st.items(), key=lambda x:-x[1])[:3]
        print(f"   {sm:6d} L{n:5d} {src[:55]:55s} {top}")
