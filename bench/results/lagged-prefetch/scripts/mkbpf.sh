# Builds and fills the block-scan variants (exp/B/*). /tmp/SV.exp2 is ScanVariants.cpp
# with scripts/block-experiment.patch applied (TCUC_BLK_PF_KB: KB ahead, 0 = none);
# it also needs ChunkPrefetch.cpp to accept tcu.prefetch in a pipelined loop.
cd /work/main
for e in "b0 0" "b32 32" "b64 64" "b128 128"; do
  set -- $e
  sed "s/^#define TCUC_BLK_PF_KB 0/#define TCUC_BLK_PF_KB $2/" /tmp/SV.exp2 > compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp
  ninja -C build bin/tcuc > /tmp/exp-$1.log 2>&1 || { echo "build $1 failed"; continue; }
  rm -rf exp/B/$1
  python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/B/$1 --ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 262144 524288 1048576 2097152 --only default >> /tmp/exp-$1.log 2>&1 || echo "fill $1 failed"
  echo "$1 $(ls exp/B/$1 | wc -l)"
  for f in exp/B/$1/*; do echo "  $(grep -c prefetch $f) $(python3 /tmp/tools/regs.py $f)"; done
done
cp /tmp/SV.exp2 compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp
ninja -C build bin/tcuc > /tmp/exp-restore.log 2>&1; echo restored
