#!/usr/bin/env bash
# A/B: 0.6.16 (B16b) vs SH (shared ticket arithmetic) vs LA (early look-back) vs SHLA (both); lagged cells.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
OPS=("scan f16->f32" "scan f16->f16" "scan i8->i32")
SEGS=(4194304 whole)
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/B16b /tmp/o/B16b --ops "${OPS[@]}" --segments "${SEGS[@]}" --only lagged:2:4 lagged:2:8 --no-peers --reps 15 > /tmp/o/B16b.log 2>&1
echo "B16b rc=$? $(( $(date +%s) - start ))s"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
T=$B/rt/bin/tcuc
# Correctness first for the new kernels (each run under a timeout: a hang stays cheap).
for v in SHLA2 LA2; do
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8" "--dtype bf16"; do
  echo "$v check $spec: $(TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $T run --device gpu --op scan $spec --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done; done
while read -r s; do
  echo "SHLA2 check $s: $(TCUC_CACHE_DIR=$PWD/exp/SHLA2 timeout 30 $T run --device gpu $s --n 3000017 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done < exp/lagged-specs.txt
echo "checks $(( $(date +%s) - start ))s"
for v in SHLA2 LA2 SH B16b; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "${OPS[@]}" --segments "${SEGS[@]}" --only lagged:2:4 lagged:2:8 --no-peers --reps 15 > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
for v in B16b SH LA2 SHLA2 B16b; do
  for i in 1 2 3; do TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $T run --device gpu --op scan --dtype bf16 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --json 2>&1 | grep -o '"ms": [0-9.]*' ; done | tr '\n' ' '; echo " bf16 $v"
done
python3 - <<'PY'
import csv
vs=['B16b','SH','LA2','SHLA2','B16b-2']
rows={}
for v in vs:
    try:
        for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
            if r['lib'].startswith('tcuc'): rows.setdefault((r['op'],r['segment'],r['lib']),{})[v]=float(r['gelems'])
    except Exception as e: print(v,e)
for k,d in sorted(rows.items()):
    b=(d.get('B16b',0)+d.get('B16b-2',0))/2 or 1
    print(f"{k[0]:14s} {k[1]:>8s} {k[2]:16s} G/s "+' '.join(f"{v}={d.get(v,0):.1f}" for v in vs)+"  rel "+' '.join(f"{v}={d.get(v,0)/b:.3f}" for v in ['SH','LA2','SHLA2']))
PY
tar czf $OUT/run18.tgz -C /tmp o
echo "done $(( $(date +%s) - start ))s"
