#!/usr/bin/env bash
# A/B: tcuc HEAD (0.6.15, exp/Base) vs working tree (exp/New: shared finite
# check, fma-form check, no zero-accumulator adds, one address a tile),
# then NaN/Inf inputs of every float reliability spec on exp/New.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
OPS=("reduce f16->f32" "scan f16->f32" "scan f16->f16" "scan i8->i32")
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/Base /tmp/o/Base --ops "${OPS[@]}" --no-peers --reps 15 > /tmp/o/Base.log 2>&1
echo "Base rc=$? $(( $(date +%s) - start ))s"
for v in New Base; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "${OPS[@]}" --no-peers --reps 15 > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
python3 - <<'PY'
import csv
rows={}
for v in ['Base','New','Base-2']:
    try:
        for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
            if r['lib'].startswith('tcuc'): rows.setdefault((r['op'],r['segment'],r['lib']),{})[v]=(float(r['frac']),r['err'])
    except Exception as e: print(v, e)
for k,d in sorted(rows.items(), key=lambda kv:(kv[0][0], float('inf') if kv[0][1]=='whole' else int(kv[0][1]), kv[0][2])):
    print(f"{k[0]:16s} {k[1]:>10s} {k[2]:18s} " + ' '.join(f"{v}={d[v][0]:.3f}" if v in d else f"{v}=-" for v in ['Base','New','Base-2']) + f"  err={d.get('New',(0,'-'))[1]}")
PY
# NaN/Inf with the new kernels
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
n=100003
python3 test/Driver/Inputs/nan_inf_input.py /tmp/tcuc-nan.f16 /tmp/tcuc-nan.bf16 /tmp/tcuc-nan.f32 $n
bad=0; total=0
while read -r s; do
  dt=$(echo "$s" | sed -n 's/.*--dtype \([a-z0-9]*\).*/\1/p'); [ "$dt" = i8 ] && continue
  total=$((total+1))
  out=$(TCUC_CACHE_DIR=$PWD/exp/New $B/rt/bin/tcuc run --device gpu $s --n $n --input /tmp/tcuc-nan.$dt --check 2>&1); rc=$?
  [ $rc -ne 0 ] && { bad=$((bad+1)); echo "FAIL nan/inf: $s -> $out" | tail -3; }
done < <(grep -v '^#' test/gpu/reliability_specs.txt)
echo "nan/inf: $((total-bad)) of $total match; $(( $(date +%s) - start ))s"
tar czf $OUT/run9.tgz -C /tmp o
