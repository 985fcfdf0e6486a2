#!/bin/bash
# regs.sh: registers and PTX size of the default scan kernels, function vs inline exact path
cd /tmp/xc; mkdir -p r
for out in f32 f16; do for p in $(seq 4 24); do seg=$((1<<p)); for mode in fn inl; do
  if [ $mode = inl ]; then export TCUC_EXACT_INLINE=1; else unset TCUC_EXACT_INLINE; fi
  f=r/$mode.$out.$p
  s=$(date +%s%N); /work/main/build/bin/tcuc compile --op scan --segment $seg --dtype f16 --out-dtype $out --arch sm_90 -o $f.k >/dev/null 2>&1; e=$(date +%s%N)
  sed -n '/^\.version/,$p' $f.k > $f.ptx
  regs=$(/usr/local/cuda/bin/ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -o "Used [0-9]* reg" | awk '{print $2}' | tr '\n' '/')
  spill=$(/usr/local/cuda/bin/ptxas -arch=sm_90 -v $f.ptx -o /dev/null 2>&1 | grep -o "[0-9]* bytes spill stores" | awk '{s+=$1} END{print s}')
  echo "$out $p $mode $(( (e-s)/1000000 ))ms $(wc -c < $f.ptx)B regs=$regs spill=$spill"
done; done; done
