// The tensor forms: round trip, and their verifier (the buffer forms' rules
// on 1-D ranked tensors).
// RUN: tcuc-opt %s -split-input-file -verify-diagnostics | tcuc-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
func.func @forms(%h: tensor<1000xf16>, %n: index) -> (tensor<63xf32>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<63xf32>
  // CHECK: tcu.reduce <add> %{{.*}} into %{{.*}} segment_size 16 {variant = #tcu.variant<seg16>} : tensor<1000xf16> -> tensor<63xf32>
  %r = tcu.reduce <add> %h into %e segment_size 16 {variant = #tcu.variant<seg16>} : tensor<1000xf16> -> tensor<63xf32>
  %d = tensor.empty(%n) : tensor<?xf32>
  %c = tensor.cast %h : tensor<1000xf16> to tensor<?xf16>
  // CHECK: tcu.scan <add> exclusive %{{.*}} into %{{.*}} segment_size 256 : tensor<?xf16> -> tensor<?xf32>
  %s = tcu.scan <add> exclusive %c into %d segment_size 256 : tensor<?xf16> -> tensor<?xf32>
  return %r, %s : tensor<63xf32>, tensor<?xf32>
}

// A runtime segment size, as in the buffer forms.
// CHECK-LABEL: func.func @runtime_size
func.func @runtime_size(%c: tensor<?xf16>, %d: tensor<?xf32>, %s: index) -> (tensor<?xf32>, tensor<?xf32>) {
  // CHECK: tcu.reduce <add> %{{.*}} into %{{.*}} segment_size %[[S:[^ ]*]] : tensor<?xf16> -> tensor<?xf32>
  %r = tcu.reduce <add> %c into %d segment_size %s : tensor<?xf16> -> tensor<?xf32>
  // CHECK: tcu.scan <add> inclusive %{{.*}} into %{{.*}} segment_size %[[S]] {variant = #tcu.variant<stream>} : tensor<?xf16> -> tensor<?xf32>
  %q = tcu.scan <add> inclusive %c into %d segment_size %s {variant = #tcu.variant<stream>} : tensor<?xf16> -> tensor<?xf32>
  return %r, %q : tensor<?xf32>, tensor<?xf32>
}

// -----

func.func @runtime_size_needs_a_runtime_variant(%c: tensor<?xf16>, %d: tensor<?xf32>, %s: index) -> tensor<?xf32> {
  // expected-error @+1 {{'tcu.scan' op variant 'block' needs a constant segment_size}}
  %q = tcu.scan <add> inclusive %c into %d segment_size %s {variant = #tcu.variant<block>} : tensor<?xf16> -> tensor<?xf32>
  return %q : tensor<?xf32>
}

// -----

func.func @rank(%h: tensor<4x16xf16>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcu.reduce' op input must be a 1-D tensor, got rank 2}}
  %r = tcu.reduce <add> %h into %e segment_size 16 : tensor<4x16xf16> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @segments(%h: tensor<64xf16>, %e: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'tcu.reduce' op output has 5 elements but the input has ceil(64 / 16) = 4 segments}}
  %r = tcu.reduce <add> %h into %e segment_size 16 : tensor<64xf16> -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

func.func @scan_length(%h: tensor<64xi8>, %e: tensor<32xi32>) -> tensor<32xi32> {
  // expected-error @+1 {{'tcu.scan' op output has 32 elements but the input has 64 (a scan writes one result per element)}}
  %r = tcu.scan <add> inclusive %h into %e segment_size 16 : tensor<64xi8> -> tensor<32xi32>
  return %r : tensor<32xi32>
}

// -----

func.func @types(%h: tensor<64xi8>, %e: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tcu.scan' op output element type must be i32 for i8 input, got 'f32'}}
  %r = tcu.scan <add> inclusive %h into %e segment_size 16 : tensor<64xi8> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @variant(%h: tensor<64xf16>, %e: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tcu.reduce' op}}
  %r = tcu.reduce <add> %h into %e segment_size 48 {variant = #tcu.variant<seg16>} : tensor<64xf16> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Offsets (CSR, k+1 i32/i64) in the tensor forms: the buffer forms' rules.
// CHECK-LABEL: func.func @offsets
func.func @offsets(%h: tensor<?xf16>, %off: tensor<?xi64>, %n: index, %k: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %e = tensor.empty(%k) : tensor<?xf32>
  // CHECK: tcu.reduce <add> %{{.*}} into %{{.*}} offsets %{{.*}} : tensor<?xf16>, tensor<?xi64> -> tensor<?xf32>
  %r = tcu.reduce <add> %h into %e offsets %off : tensor<?xf16>, tensor<?xi64> -> tensor<?xf32>
  %d = tensor.empty(%n) : tensor<?xf32>
  // CHECK: tcu.scan <add> exclusive %{{.*}} into %{{.*}} offsets %{{.*}} : tensor<?xf16>, tensor<?xi64> -> tensor<?xf32>
  %s = tcu.scan <add> exclusive %h into %d offsets %off : tensor<?xf16>, tensor<?xi64> -> tensor<?xf32>
  return %r, %s : tensor<?xf32>, tensor<?xf32>
}

// -----

func.func @offsets_type(%h: tensor<?xf16>, %off: tensor<?xf32>, %e: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'tcu.reduce' op offsets must hold i32 or i64, got 'f32'}}
  %r = tcu.reduce <add> %h into %e offsets %off : tensor<?xf16>, tensor<?xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @offsets_length(%h: tensor<?xf16>, %off: tensor<4xi32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tcu.reduce' op output has 4 elements but 4 offsets make 3 segments}}
  %r = tcu.reduce <add> %h into %e offsets %off : tensor<?xf16>, tensor<4xi32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
