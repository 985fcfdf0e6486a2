#!/usr/bin/env bash
# GPU correctness on a machine with a CUDA GPU and no LLVM: builds the
# runtime-only tcuc, then runs the runtime unit tests, the correctness grid
# (test/gpu/gpu_grid.py), compute-sanitizer memcheck, racecheck and initcheck on a
# representative set, and the C++ example. Kernels come from a kernel cache
# filled on the compiler machine:
#
#   python3 test/gpu/gpu_grid.py fill --tcuc build/bin/tcuc --cache-dir DIR
#   test/gpu/run_on_gpu.sh DIR [grid|class|large|sanitize|example|all|extremes]
#
# `class` runs the class kernels' grid (gpu_grid.py --variant class), whose
# kernels come from the kernel library when TCUC_KERNEL_LIBRARY names one
# (the sizes past the classes from DIR: gpu_grid.py fill --variant class).
#
# and, not part of `all`, every variant's sanitizer, determinism and NaN/Inf
# runs (test/gpu/reliability_specs.txt), from a cache filled with
#
#   grep -v '^#' test/gpu/reliability_specs.txt | while read -r s; do
#     build/bin/tcuc compile $s --arch sm_90 --cache-dir DIR -o /dev/null; done
#   test/gpu/run_on_gpu.sh DIR reliability
#
# Prints one summary line per part; exits non-zero if any part failed.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$(cd "$1" && pwd)"
what="${2:-all}"
build="${TCUC_GPU_BUILD_DIR:-/tmp/tcuc-rt}"
export TCUC_CACHE_DIR="$cache"
status=0
summary=()

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cmake -S "$root" -B "$build" -G Ninja -DTCUC_ENABLE_COMPILER=OFF \
  -DCMAKE_BUILD_TYPE=Release >"$build.configure.log" 2>&1 &&
  cmake --build "$build" >"$build.build.log" 2>&1 ||
  { cat "$build.configure.log" "$build.build.log"; exit 2; }
tcuc="$build/bin/tcuc"

part() { [ "$what" = all ] || [ "$what" = "$1" ]; }
record() { # name rc detail
  if [ "$2" -ne 0 ]; then status=1; summary+=("FAIL $1: $3"); else
    summary+=("ok   $1: $3"); fi
}
# sanitize LABEL TOOL... -- SPEC...: each compute-sanitizer tool over each
# spec (n = 100003, checked), one summary line per tool.
sanitize() {
  local label="$1" tools=() bad out rc s tool
  shift
  while [ "$1" != -- ]; do tools+=("$1"); shift; done
  shift
  for tool in "${tools[@]}"; do
    bad=0
    for s in "$@"; do
      # shellcheck disable=SC2086
      out=$(compute-sanitizer --tool $tool --error-exitcode 9 \
        "$tcuc" run --device gpu $s --n 100003 --check 2>&1)
      rc=$?
      if [ $rc -ne 0 ]; then bad=$((bad + 1)); echo "$out" | tail -20; fi
      echo "$tool: $s -> $(echo "$out" | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|check:' | tr '\n' ' ')"
    done
    record "compute-sanitizer $tool$label" $bad "$(($# - bad)) of $# clean"
  done
}

if part grid; then
  if [ -x "$build/unittests/Runtime/RuntimeTests" ]; then
    "$build/unittests/Runtime/RuntimeTests" >/tmp/tcuc-unit.log 2>&1
    record "runtime unit tests" $? "$(grep -E 'PASSED|FAILED' /tmp/tcuc-unit.log | tr '\n' ' ')"
  fi
  python3 "$root/test/gpu/gpu_grid.py" run --tcuc "$tcuc" --jobs 8 \
    >/tmp/tcuc-grid.log 2>&1
  rc=$?
  grep FAIL -A2 /tmp/tcuc-grid.log | head -40
  record "grid" $rc "$(tail -1 /tmp/tcuc-grid.log)"
fi

if part class; then
  python3 "$root/test/gpu/gpu_grid.py" run --tcuc "$tcuc" --variant class \
    --jobs 8 >/tmp/tcuc-class.log 2>&1
  rc=$?
  grep FAIL -A2 /tmp/tcuc-class.log | head -40
  record "class grid" $rc "$(tail -1 /tmp/tcuc-class.log)"
fi

if part large; then
  python3 "$root/test/gpu/gpu_grid.py" run --tcuc "$tcuc" --large \
    --only-large --large-cases "${TCUC_LARGE_CASES:-}" --jobs 1 \
    2>&1 | tee /tmp/tcuc-large.log
  rc=${PIPESTATUS[0]}
  record "n = 2^31 + 12345" $rc "$(tail -1 /tmp/tcuc-large.log)"
fi

if part sanitize; then
  # One kernel of each kind of work: tile loads/stores at ragged ends,
  # per-warp workgroup scratch (block), device scratch and several kernels
  # (grid), strided lines, and short segment scans (one or several a tile).
  sets=(
    "--op reduce --variant seg16 --dtype f16 --segment 7"
    "--op reduce --variant seg16n_coalesced --dtype bf16 --segment 1000"
    "--op reduce --variant block --dtype f32 --segment 4097"
    "--op reduce --variant grid --dtype i8 --segment 5000"
    "--op reduce --variant packed --dtype f16 --segment 48"
    "--op scan --variant seg256 --dtype bf16 --segment 48 --exclusive"
    "--op scan --variant seg16n --dtype f32 --segment 1000"
    "--op scan --variant block --dtype f16 --segment 4097"
    "--op scan --variant grid --dtype i8 --segment 4097 --exclusive"
    "--op scan --variant packed --dtype f16 --segment 48 --exclusive"
  )
  sanitize "" memcheck racecheck initcheck -- "${sets[@]}"
fi

# Every variant (reliability_specs.txt): compute-sanitizer memcheck,
# racecheck, initcheck and synccheck; 10 runs of the same input compared
# bitwise; an input with NaN, +Inf and -Inf checked against the IEEE
# reference (docs/algorithms.md, "NaN and Inf"), and run under racecheck
# and memcheck; an input with the finite extremes (subnormals, values below
# 2^-110, f32's top binade: docs/algorithms.md, "Precision") checked, and
# run under memcheck. `extremes` runs the input checks alone (no
# sanitizers, no determinism): minutes instead of an hour.
# extremes: the NaN/Inf and finite-extreme input checks of every float spec.
extremes() {
  local n=100003 bad=0 total=0 s dt out
  python3 "$root/test/Driver/Inputs/nan_inf_input.py" /tmp/tcuc-nan.f16 \
    /tmp/tcuc-nan.bf16 /tmp/tcuc-nan.f32 "$n"
  python3 "$root/test/Driver/Inputs/extreme_input.py" /tmp/tcuc-ext.f16 \
    /tmp/tcuc-ext.bf16 /tmp/tcuc-ext.f32 "$n"
  for kind in nan ext; do
    bad=0; total=0
    for s in "${specs[@]}"; do
      dt=$(echo "$s" | sed -n 's/.*--dtype \([a-z0-9]*\).*/\1/p')
      [ "$dt" = i8 ] && continue
      total=$((total + 1))
      out=$("$tcuc" run --device gpu $s --n $n --input /tmp/tcuc-$kind.$dt --check 2>&1)
      [ $? -ne 0 ] && bad=$((bad + 1))
      echo "$kind: $s -> $(echo "$out" | grep -E 'check:|error' | tr '\n' ' ')"
    done
    record "$kind inputs (every float variant)" $bad "$((total - bad)) of $total match the reference"
  done
}

if [ "$what" = extremes ]; then
  mapfile -t specs < <(grep -v '^#' \
    "${TCUC_RELIABILITY_SPECS:-$root/test/gpu/reliability_specs.txt}")
  extremes
fi

if [ "$what" = reliability ]; then
  # TCUC_RELIABILITY_SPECS: another spec file (a subset, after a change to
  # one variant).
  mapfile -t specs < <(grep -v '^#' \
    "${TCUC_RELIABILITY_SPECS:-$root/test/gpu/reliability_specs.txt}")
  n=100003
  python3 "$root/test/Driver/Inputs/nan_inf_input.py" /tmp/tcuc-nan.f16 \
    /tmp/tcuc-nan.bf16 /tmp/tcuc-nan.f32 "$n"
  sanitize " (every variant)" memcheck racecheck initcheck synccheck -- "${specs[@]}"
  bad=0
  for s in "${specs[@]}"; do
    # Every run must succeed (a failed run prints no sum and must not count
    # as agreeing).
    sums=$(for i in $(seq 10); do
      if "$tcuc" run --device gpu $s --n 1000003 --seed 11 \
        --output /tmp/tcuc-det.out >/dev/null 2>&1; then
        md5sum </tmp/tcuc-det.out; else echo "run $i failed"; fi; done)
    distinct=$(echo "$sums" | sort -u | grep -c .)
    if [ "$distinct" -ne 1 ] || echo "$sums" | grep -q failed; then
      bad=$((bad + 1)); fi
    echo "determinism: $s -> $distinct distinct result(s) in 10 runs"
  done
  record "determinism (10 runs, every variant)" $bad "$((${#specs[@]} - bad)) of ${#specs[@]} bitwise identical"
  extremes
  # The same inputs under racecheck and memcheck: random data never takes
  # the exact path (per-warp shared memory, docs/algorithms.md), these do.
  nanSpecs=()
  for s in "${specs[@]}"; do
    dt=$(echo "$s" | sed -n 's/.*--dtype \([a-z0-9]*\).*/\1/p')
    [ "$dt" = i8 ] || nanSpecs+=("$s --input /tmp/tcuc-nan.$dt" "$s --input /tmp/tcuc-ext.$dt")
  done
  sanitize " (NaN/Inf and extreme inputs: the exact path)" racecheck memcheck -- "${nanSpecs[@]}"
fi

if part example; then
  cmake -S "$root/examples/cpp" -B "$build-example" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
    cmake --build "$build-example" >/dev/null 2>&1
  out=$("$build-example/reduce_scan" 2>&1)
  rc=$?
  echo "$out"
  record "C++ example" $rc "$(echo "$out" | tail -1)"
fi

printf '%s\n' "${summary[@]}"
exit $status
