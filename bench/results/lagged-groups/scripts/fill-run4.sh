#!/usr/bin/env bash
# Run 4's caches (the run-3 compiler; switches as fill-run3.sh, and
# TCUC_EXP_FORCE=1: the early words taken as published, wrong results).
set -e
f() { d=$1; shift; env TCUC_EXP_EARLY=2 "$@" python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/$d \
  --ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default | tail -1; }
f r4 TCUC_EXP_ROUNDS=4
f r8 TCUC_EXP_ROUNDS=8
f L8r4 TCUC_EXP_ROUNDS=4 TCUC_EXP_LAGMB=8
f L10r4 TCUC_EXP_ROUNDS=4 TCUC_EXP_LAGMB=10
f E58r4 TCUC_EXP_ROUNDS=4 TCUC_EXP_ENUM=5 TCUC_EXP_EDEN=8
f Ur4 TCUC_EXP_ROUNDS=4 TCUC_EXP_FORCE=1
