#!/usr/bin/env bash
# `tcuc run --check` over a grid of shapes of one variant, one line a
# failure and a summary line; exits non-zero if any run failed. On the GPU
# machine TCUC is the runtime-only tcuc and the kernels come from
# TCUC_CACHE_DIR (fill it on the compiler machine with `tcuc compile ...
# --cache-dir DIR` for every type x tiles x warps below); with
# DEVICE=cpu it runs the compiler's CPU backend (a quick local check).
#
#   TCUC=... [DEVICE=gpu] test/gpu/check_shapes.sh VARIANT SEGMENT \
#       "TYPES" "TILES" "WARPS" "NS" [extra tcuc run flags...]
#
# TYPES is a list of dtype specs separated by ';' (e.g. "--dtype f16
# --out-dtype f16;--dtype i8"), TILES, WARPS and NS space-separated lists.
# Each run has a 30 s timeout (a hang is a failure).
set -uo pipefail
if [ $# -lt 6 ]; then
  echo "usage: TCUC=tcuc [DEVICE=gpu] $0 VARIANT SEGMENT TYPES TILES WARPS NS [flags]" >&2
  exit 2
fi
variant="$1" segment="$2" types="$3" tiles="$4" warps="$5" ns="$6"
shift 6
tcuc="${TCUC:-tcuc}"
device="${DEVICE:-gpu}"
ok=0 bad=0
IFS=';' read -r -a typelist <<<"$types"
for t in "${typelist[@]}"; do
  for k in $tiles; do for w in $warps; do for n in $ns; do
    # $t holds several flags: split on spaces on purpose.
    # shellcheck disable=SC2086
    out=$(timeout 30 "$tcuc" run --device "$device" --op scan \
      --variant "$variant" $t --segment "$segment" --tiles-per-warp "$k" \
      --warps-per-block "$w" -n "$n" --check "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && grep -q "check: PASS" <<<"$out"; then
      ok=$((ok + 1))
    else
      bad=$((bad + 1))
      echo "FAIL rc=$rc $variant $t k=$k W=$w n=$n: $(tail -2 <<<"$out" | tr '\n' ' ')"
    fi
  done; done; done
done
echo "$variant checks at segment $segment: ok $ok bad $bad"
[ $bad -eq 0 ]
