#!/usr/bin/env bash
# A/B of every default kernel: base (0.6.14), U (exact-path loops kept rolled),
# L (no loop strength reduction), UL (both); JIT load latency of each.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/Dbase /tmp/o/Dbase --only default --no-peers --reps 15 > /tmp/o/Dbase.log 2>&1
echo "Dbase rc=$? $(( $(date +%s) - start ))s"
for v in DU DL DUL; do
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out /tmp/o/$v --only default --no-peers --reps 15 > /tmp/o/$v.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
for r in 1 2; do for v in Dbase DU DL DUL; do
  CUDA_CACHE_DISABLE=1 $B/rt/bin/tcuc-jit-latency exp/$v > /tmp/o/jit-$v-$r.txt 2>&1
  echo "jit $v $r: $(grep -i 'load' /tmp/o/jit-$v-$r.txt | tail -2 | tr '\n' ' ')"
done; done
python3 - <<'PY'
import csv
rows={}
for v in ['Dbase','DU','DL','DUL']:
    try:
        for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
            if r['lib']=='tcuc': rows.setdefault((r['op'],r['segment']),{})[v]=float(r['frac'])
    except Exception as e: print(v,e)
for k,d in rows.items():
    b=d.get('Dbase')
    print(f"{k[0]:16s} {k[1]:>10s} " + ' '.join(f"{v}={d.get(v,0):.3f}" for v in ['Dbase','DU','DL','DUL']) + (f"  U{(d.get('DU',0)/b-1)*100:+.1f}% L{(d.get('DL',0)/b-1)*100:+.1f}% UL{(d.get('DUL',0)/b-1)*100:+.1f}%" if b else ''))
PY
tar czf $OUT/run2.tgz -C /tmp o
