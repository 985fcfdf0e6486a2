#!/usr/bin/env bash
# A/B timing of kernel caches on a machine with a CUDA GPU: the caches'
# tcuc kernels timed in alternating rounds in one process-warm machine, so
# that clock and thermal drift fall on every side alike. Each cache is a
# `bench.py fill` directory (made on the compiler machine, e.g. once with
# an experiment switch set and once without).
#
#   bench/ab.sh [--rounds N] OUTDIR NAME=CACHE... -- BENCH_RUN_ARGS...
#
# BENCH_RUN_ARGS go to `bench.py run` (e.g. --ops "scan f16->f16"
# --segments whole --only lagged:2:4 --no-peers --reps 15). Prints one line
# a run: NAME, round, then op,segment,G elements/s of each tcuc row; the
# runs' CSVs are kept in OUTDIR/NAME-ROUND/.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds=3
if [ "${1:-}" = --rounds ]; then rounds="$2"; shift 2; fi
out="$1"; shift
sides=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do sides+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
if [ ${#sides[@]} -lt 1 ]; then
  echo "usage: bench/ab.sh [--rounds N] OUTDIR NAME=CACHE... -- BENCH_RUN_ARGS" >&2
  exit 2
fi
build="${TCUC_BENCH_BUILD_DIR:-/tmp/tcuc-bench-build}"
"$root/bench/gpu_build.sh" || exit 2
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for side in "${sides[@]}"; do
    name="${side%%=*}"; cache="${side#*=}"
    dir="$out/$name-$r"
    PYTHONUNBUFFERED=1 python3 "$root/bench/bench.py" run --cache-dir "$cache" \
      --tcuc-lib "$build/rt/runtime/libtcuc_runtime.so" \
      --cub-lib "$build/libcub_baselines.so" --out "$dir" "$@" \
      >"$dir.log" 2>&1
    rc=$?
    echo "$name $r rc=$rc $(grep -h '^[^,]*,[^,]*,tcuc' "$dir/results.csv" 2>/dev/null |
      cut -d, -f1,2,4,7 | tr '\n' ' ')"
  done
done
