#!/usr/bin/env bash
# tcuc 0.6.20's JIT load and warm times on the H100 from the kernels `tcuc-jit-latency exp/J` compiled on the build VM: twice, with the driver's PTX JIT cache off (cold loads), then once with it on.
B=/tmp/tcuc-bench-build
cmake -S . -B $B/rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DTCUC_ENABLE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/jit-cmake.log 2>&1 && cmake --build $B/rt --target tcuc-jit-latency >> /tmp/jit-cmake.log 2>&1 || { tail -20 /tmp/jit-cmake.log; exit 2; }
for i in 1 2; do CUDA_CACHE_DISABLE=1 $B/rt/bin/tcuc-jit-latency exp/J > $OUT/jit_latency_gpu_$i.txt 2>&1; echo "cold $i rc=$?"; grep -E "load|warm" $OUT/jit_latency_gpu_$i.txt | tail -3; done
$B/rt/bin/tcuc-jit-latency exp/J > $OUT/jit_latency_gpu_cache.txt 2>&1; echo "driver cache on rc=$?"; grep -E "load|warm" $OUT/jit_latency_gpu_cache.txt | tail -3
