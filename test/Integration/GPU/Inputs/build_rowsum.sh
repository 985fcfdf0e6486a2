#!/bin/sh
# build_rowsum.sh TCUC_OPT MLIR_TRANSLATE LLC CXX SRC_ROOT OBJ_ROOT OUT: the
# host program of host-launch.test, from Inputs/rowsum.mlir through the GPU
# pipeline with host-launch, upstream's host lowering, llc, and
# Inputs/rowsum_main.cpp linked with the runtime and libtcuc_mgpu.so.
set -e
opt=$1 translate=$2 llc=$3 cxx=$4 src=$5 obj=$6 out=$7
"$opt" "$src/test/Integration/GPU/Inputs/rowsum.mlir" --tcu-raise-linalg \
  --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
  --convert-linalg-to-parallel-loops --canonicalize \
  --tcu-to-ptx="host-launch=true" -o "$out.mlir"
"$translate" --mlir-to-llvmir "$out.mlir" -o "$out.ll"
"$llc" -O2 -filetype=obj --relocation-model=pic "$out.ll" -o "$out.o"
"$cxx" -std=c++17 -O2 -I "$src/runtime/include" \
  "$src/test/Integration/GPU/Inputs/rowsum_main.cpp" "$out.o" \
  "$obj/runtime/libTCUCRuntime.a" "$obj/runtime/libTCUCSpec.a" \
  "$obj/runtime/libtcuc_mgpu.so" -Wl,-rpath,"$obj/runtime" -ldl -lpthread \
  -o "$out"
