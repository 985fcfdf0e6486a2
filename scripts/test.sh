#!/usr/bin/env bash
# README's test command: installs what is missing, builds, and runs every test
# (lit/FileCheck suites and the GoogleTest unit tests, through lit), then prints
# one summary line. Exits non-zero if anything failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCUC_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
"$root/scripts/build.sh"

log="$build/check-tcuc.log"
status=0
/usr/lib/llvm-22/bin/lit -sv "$build/test" "$build/test/Unit" 2>&1 | tee "$log" || status=$?

# lit's summary aligns the colons ("  Passed     : 95"), so allow spaces
# before them.
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | tail -n 1; }
passed=$(count Passed); failed=$(count Failed); unsupported=$(count Unsupported)
skipped=$(count Skipped)
: "${passed:=0}" "${failed:=0}" "${unsupported:=0}" "${skipped:=0}"
echo
echo "tcuc: ${passed} passed, ${failed} failed, $((unsupported + skipped)) skipped"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
