// Every chip from sm_80 on gets PTX for itself (docs/gpus.md): the PTX ISA
// is 8.0 up to sm_90 and the chip's minimum from sm_100 on; older chips and
// names that are no chip are an error of the pipeline (never an LLVM abort
// in instruction selection).
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_86" | FileCheck %s --check-prefix=SM86
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_100" | FileCheck %s --check-prefix=SM100
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_120" | FileCheck %s --check-prefix=SM120
// RUN: tcuc-opt %s --tcu-to-ptx="chip=sm_120 features=+ptx88" | FileCheck %s --check-prefix=SM120PTX88
// RUN: not tcuc-opt %s --tcu-to-ptx="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not tcuc-opt %s --tcu-to-ptx="chip=banana" 2>&1 | FileCheck %s --check-prefix=BANANA
// SM86: .version 8.0\0A.target sm_86
// SM86: mma.sync.aligned.m16n8k16
// SM100: .version 8.6\0A.target sm_100
// SM120: .version 8.7\0A.target sm_120
// SM120PTX88: .version 8.8\0A.target sm_120
// SM75: error: tcu-to-ptx: chip=sm_75: sm_75 is older than tcuc supports: its kernels need mma.sync m16n8k16, sm_80 (Ampere) or newer
// BANANA: error: tcu-to-ptx: chip=banana: 'banana' is not a GPU architecture (expected sm_<digits>, e.g. sm_80, sm_86, sm_90, sm_120)
func.func @sums(%in: memref<1000xf16>, %out: memref<63xf32>) {
  tcu.segmented_reduce <add> %in into %out segment_size 16
      : memref<1000xf16> -> memref<63xf32>
  return
}
