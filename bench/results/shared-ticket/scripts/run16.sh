#!/usr/bin/env bash
# A/B: 0.6.16 (exp/B16b) vs ticket arithmetic shared from warp 0 (exp/SH), lagged cells; bf16 by tcuc run.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
OPS=("scan f16->f32" "scan f16->f16" "scan i8->i32")
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/B16b /tmp/o/B16b --ops "${OPS[@]}" --segments 65536 1048576 4194304 whole --only default lagged:2:4 lagged:2:8 --no-peers --reps 15 > /tmp/o/B16b.log 2>&1
echo "B16b rc=$? $(( $(date +%s) - start ))s"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
for v in SH B16b; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "${OPS[@]}" --segments 65536 1048576 4194304 whole --only default lagged:2:4 lagged:2:8 --no-peers --reps 15 > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
for v in B16b SH B16b; do
  for i in 1 2 3; do TCUC_CACHE_DIR=$PWD/exp/$v $B/rt/bin/tcuc run --device gpu --op scan --dtype bf16 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --json 2>&1 | grep -o '"ms": [0-9.]*' ; done | tr '\n' ' '; echo " bf16 $v"
done
python3 - <<'PY'
import csv
rows={}
vs=['B16b','SH','B16b-2']
for v in vs:
    try:
        for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
            if r['lib'].startswith('tcuc'): rows.setdefault((r['op'],r['segment'],r['lib']),{})[v]=(float(r['frac']),r['err'])
    except Exception as e: print(v, e)
for k,d in sorted(rows.items()):
    print(f"{k[0]:16s} {k[1]:>10s} {k[2]:18s} " + ' '.join(f"{v}={d[v][0]:.3f}" if v in d else f"{v}=-" for v in vs) + f"  err={d.get('SH',(0,'-'))[1]}")
PY
tar czf $OUT/run14.tgz -C /tmp o
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8" "--dtype bf16"; do
  echo "SH check $spec: $(TCUC_CACHE_DIR=$PWD/exp/SH timeout 30 $B/rt/bin/tcuc run --device gpu --op scan $spec --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|error' | tr '\n' ' ')"
done
tar czf $OUT/run16.tgz -C /tmp o
echo "done $(( $(date +%s) - start ))s"
