// RUN: tcuc-opt %s --tcu-outline-kernels="block-size=48" --verify-diagnostics

// A block is whole warps, at most 32 of them.
// expected-error @below {{block-size must be a multiple of 32 in [32, 1024]}}
module {
}
