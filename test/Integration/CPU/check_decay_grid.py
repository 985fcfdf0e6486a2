#!/usr/bin/env python3
"""Runs `tcuc run --device cpu --check --json --decay A` over a grid of
decays, segment sizes, dtypes and scan modes and fails if any result misses
the float64 recurrence by more than the rule of --check (rel_err <= 2 x the
sequential f32 recurrence's + the output type's floor), or if a run does not
report the decay it was asked for. Used by scan-decay-grid.test."""

import argparse
import json
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tcuc", required=True)
    p.add_argument("--decays", default="0,0.5,0.9,0.999,1,-0.5")
    p.add_argument("--sizes", default="1,7,16,100,256")
    p.add_argument("--dtypes", default="f16,bf16,f32")
    p.add_argument("--modes", default="inclusive,exclusive")
    p.add_argument("--n", type=int, default=20011)
    p.add_argument("--out-dtype", help="output type (default: f32)")
    args = p.parse_args()

    failures, runs = [], 0
    for decay in args.decays.split(","):
        for dtype in args.dtypes.split(","):
            for segment in [int(s) for s in args.sizes.split(",")]:
                for mode in args.modes.split(","):
                    cmd = [args.tcuc, "run", "--device", "cpu", "--op",
                           "scan", "--dtype", dtype, "--segment",
                           str(segment), "--n", str(args.n), "--seed",
                           str(segment + args.n), "--decay", decay,
                           "--check", "--json"]
                    if args.out_dtype:
                        cmd += ["--out-dtype", args.out_dtype]
                    if mode.startswith("exclusive"):
                        cmd.append("--exclusive")
                    if mode.endswith("reverse"):
                        cmd.append("--reverse")
                    runs += 1
                    proc = subprocess.run(cmd, capture_output=True, text=True)
                    try:
                        result = json.loads(proc.stdout)
                    except ValueError:
                        result = None
                    # decay 1 is the plain scan: no `decay` in the report.
                    want = None if float(decay) == 1 else float(decay)
                    got = result.get("decay") if result else None
                    wrong_decay = result is not None and (
                        (want is None) != (got is None) or
                        (want is not None and abs(got - want) > 1e-7))
                    if (proc.returncode != 0 or not result or
                            not result["ok"] or wrong_decay):
                        failures.append((" ".join(cmd), proc.returncode,
                                         proc.stdout.strip(),
                                         proc.stderr.strip() +
                                         (" (wrong decay reported)"
                                          if wrong_decay else "")))
                    else:
                        print(f"ok decay={decay} {result['variant']} {mode} "
                              f"{dtype} segment={segment} "
                              f"rel_err={result['rel_err']} "
                              f"seq_f32={result['seq_f32_rel_err']}")
    for cmd, rc, out, err in failures:
        print(f"FAIL (exit {rc}): {cmd}\n  {out}\n  {err}")
    print(f"{runs - len(failures)} of {runs} runs passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
