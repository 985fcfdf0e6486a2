#!/usr/bin/env bash
# Fuzzes tcuc-opt's parse -> verify -> lower path with libFuzzer
# (compiler/tools/tcuc-opt-fuzzer, built by scripts/sanitize.sh asan with
# ASan + UBSan + coverage) for a given time; not part of the test suite.
#
#   scripts/fuzz.sh [SECONDS=1800] [extra libFuzzer flags...]
#
# The corpus starts from every lit input (split at `// -----`) and grows in
# build-asan/fuzz/corpus; crashes, timeouts and leaks land in
# build-asan/fuzz/artifacts (reproduce: build-asan/bin/tcuc-opt-fuzzer FILE).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-1800}"
shift $(( $# > 0 ? 1 : 0 ))
build="${TCUC_ASAN_BUILD_DIR:-$root/build-asan}"
fuzzer="$build/bin/tcuc-opt-fuzzer"
if [ ! -x "$fuzzer" ] || [ -n "${TCUC_FUZZ_REBUILD:-}" ]; then
  "$root/scripts/sanitize.sh" asan "$build/test/Dialect"
fi
dir="$build/fuzz"
mkdir -p "$dir/seeds" "$dir/corpus" "$dir/artifacts"
python3 - "$root/test" "$dir/seeds" <<'PY'
import os, sys
src, out = sys.argv[1], sys.argv[2]
n = 0
for d, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".mlir"):
            continue
        text = open(os.path.join(d, f), errors="replace").read()
        for part in text.split("// -----"):
            body = "\n".join(l for l in part.splitlines()
                             if not l.lstrip().startswith("// RUN"))
            if body.strip():
                open(os.path.join(out, f"seed{n:04d}.mlir"), "w").write(body)
                n += 1
print(f"{n} seeds from {src}")
PY
# allow_user_poisoning=0: see scripts/sanitize.sh.
export ASAN_OPTIONS="detect_leaks=1:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: a blow-up.
exec "$fuzzer" "$dir/corpus" "$dir/seeds" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$dir/artifacts/" -dict="$root/compiler/tools/tcuc-opt-fuzzer/mlir.dict" "$@"
