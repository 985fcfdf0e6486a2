# Builds and fills the lagged variants (exp/P/*). /tmp/SV.exp is ScanVariants.cpp
# with scripts/lagged-experiment.patch applied (TCUC_LAG_PF_KB: KB ahead, 0 = none;
# TCUC_LAG_PF_HINT: the prefetch's L2 priority). exp/Q/* were then made from
# exp/P/* with ../../lagged-window-knobs/scripts/maxnreg.py SRC DST N minnctapersm
# (a .minnctapersm N register budget, re-hashed).
cd /work/main
for e in "base 0 EvictLast" "pf1 1024 EvictLast" "pf2 2048 EvictLast" "pf4 4096 EvictLast" "pf2n 2048 Normal"; do
  set -- $e
  sed "s/^#define TCUC_LAG_PF_KB 2048/#define TCUC_LAG_PF_KB $2/; s/^#define TCUC_LAG_PF_HINT CacheHint::EvictLast/#define TCUC_LAG_PF_HINT CacheHint::$3/" /tmp/SV.exp > compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp
  grep -q "TCUC_LAG_PF_KB $2\$" compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp || echo "patch $1 failed"
  ninja -C build bin/tcuc > /tmp/exp-$1.log 2>&1 || { echo "build $1 failed"; continue; }
  rm -rf exp/P/$1
  python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/P/$1 --ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 lagged:4:4 >> /tmp/exp-$1.log 2>&1 || echo "fill $1 failed"
  echo "$1 $(ls exp/P/$1 | wc -l) $(for f in exp/P/$1/*.ptx; do grep -c 'prefetch' $f; done | sort | uniq -c | tr '\n' ' ')"
done
cp /tmp/SV.exp compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp
ninja -C build bin/tcuc > /tmp/exp-restore.log 2>&1; echo restored
