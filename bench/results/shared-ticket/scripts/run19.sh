#!/usr/bin/env bash
# A/B of the completion lag E with the shared ticket arithmetic (SH) and the early look-back (SHLA2); lagged:2:4 whole.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
OPS=("scan f16->f32" "scan f16->f16" "scan i8->i32")
ARGS=(--ops "${OPS[@]}" --segments whole --only lagged:2:4 --no-peers --reps 15)
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/B16b /tmp/o/B16b "${ARGS[@]}" > /tmp/o/B16b.log 2>&1
echo "B16b rc=$? $(( $(date +%s) - start ))s"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
T=$B/rt/bin/tcuc
VS="SH SHE4 SHLA2 SHLA2E4 SHLA2E8 B16b"
for v in $VS; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 timeout 120 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
for v in B16b $VS; do
  for i in 1 2 3; do TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $T run --device gpu --op scan --dtype bf16 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --json 2>&1 | grep -o '"ms": [0-9.]*' ; done | tr '\n' ' '; echo " bf16 $v"
done
for v in SHE4 SHLA2E4 SHLA2E8; do
  echo "$v check f16: $(TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $T run --device gpu --op scan --dtype f16 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done
python3 - <<'PY'
import csv
vs=['B16b','SH','SHE4','SHLA2','SHLA2E4','SHLA2E8','B16b-2']
rows={}
for v in vs:
    try:
        for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
            if r['lib'].startswith('tcuc'): rows.setdefault((r['op'],r['segment'],r['lib']),{})[v]=float(r['gelems'])
    except Exception as e: print(v,e)
for k,d in sorted(rows.items()):
    b=(d.get('B16b',0)+d.get('B16b-2',0))/2 or 1
    print(f"{k[0]:14s} {k[1]:>6s} "+' '.join(f"{v}={d.get(v,0):.1f}({d.get(v,0)/b:.3f})" for v in vs))
PY
tar czf $OUT/run19.tgz -C /tmp o
echo "done $(( $(date +%s) - start ))s"
