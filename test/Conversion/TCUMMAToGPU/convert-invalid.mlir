// RUN: tcuc-opt %s --split-input-file --convert-tcu-mma-to-gpu --verify-diagnostics

// The fragment conversion takes a product's right operand as its transpose:
// data on the right must have been through tcu-transpose-mma-operands.
gpu.module @untransposed_kernels {
  gpu.func @untransposed(%in: memref<?xf16>, %b: index, %n: index) kernel {
    %c16 = arith.constant 16 : index
    %zero = arith.constant dense<0.0> : vector<16x16xf32>
    %l = tcu.matrix <P> : vector<16x16xf16>
    %a = tcu.load_tile <rows> %in[%b] stride %c16 line %c16 limit %n : memref<?xf16> -> vector<16x16xf16>
    // expected-error @below {{right operand must be a constant matrix or a transpose (run tcu-transpose-mma-operands first)}}
    %r = tcu.mma %l, %a, %zero : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf32>
    gpu.return
  }
}
