cd /work/main
for e in "base 8 h" "lag4 4 h" "lag16 16 h" "lag24 24 h" "eq 8 q" "e3q 8 3q"; do
  set -- $e
  python3 /tmp/mkexp.py $1 $2 $3
  ninja -C build bin/tcuc > /tmp/exp-$1.log 2>&1 || { echo "build $1 failed"; continue; }
  python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/G/$1 --ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 >> /tmp/exp-$1.log 2>&1
  echo "$1 $(ls exp/G/$1 | wc -l)"
done
cp /tmp/SV.orig compiler/lib/Conversion/TCUToMMA/ScanVariants.cpp
ninja -C build bin/tcuc > /tmp/exp-restore.log 2>&1; echo restored
