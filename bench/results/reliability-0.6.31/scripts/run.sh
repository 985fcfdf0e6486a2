#!/usr/bin/env bash
# The reliability set (test/gpu/reliability_specs.txt, 58 specs) with the
# final 0.6.31, in two device calls of 29 specs each (PART=1 or 2):
# compute-sanitizer memcheck/racecheck/initcheck/synccheck, 10-run
# determinism, NaN/Inf inputs against the IEEE reference.
# Cache (build machine):
#   grep -v '^#' test/gpu/reliability_specs.txt | grep -v '^\s*$' | while read -r s; do
#     build/bin/tcuc compile $s --arch sm_90 --cache-dir exp/R -o /dev/null; done
#   ... > /tmp/rel_all.txt; head -29 > exp/rel1.txt; tail -n +30 > exp/rel2.txt
set -u
out="${OUT:-/tmp/out}"
part="${PART:-1}"
TCUC_RELIABILITY_SPECS=$PWD/exp/rel$part.txt timeout "${LIMIT:-400}" test/gpu/run_on_gpu.sh exp/R reliability \
  > "$out/reliability-$part.log" 2>&1
echo "reliability part $part rc=$?"; grep -E "^(ok|FAIL)  " "$out/reliability-$part.log"
