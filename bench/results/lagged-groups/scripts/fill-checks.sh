d=$1
types=("--dtype f16 --out-dtype f16" "--dtype f16" "--dtype bf16 --out-dtype bf16" "--dtype bf16" "--dtype i8" "--dtype f32")
for t in "${types[@]}"; do for k in 1 2 4; do for w in 4 8; do for ex in "" "--exclusive"; do
  build/bin/tcuc compile --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w $ex --arch sm_90 --cache-dir $d -o /dev/null || echo "FAILED $t $k $w $ex"
done; done; done; done
for t in "${types[@]}"; do
  build/bin/tcuc compile --op scan --variant lagged $t --segment 2147483648 --tiles-per-warp 4 --warps-per-block 8 --arch sm_90 --cache-dir $d -o /dev/null || echo "FAILED big $t"
done
grep -v '^#' test/gpu/reliability_specs.txt | grep lagged | while read -r s; do build/bin/tcuc compile $s --arch sm_90 --cache-dir $d -o /dev/null || echo "FAILED $s"; done
