set -e
d=$1
python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir $d --ops "scan f16->f16" "scan f16->f32" "scan bf16->bf16" "scan bf16->f32" --segments 4194304 whole --only default 2>&1 | tail -2
