// Verifier rules of the tcu dialect's discardable attributes: their type,
// their value and the ops that may carry them.
// RUN: tcuc-opt %s -split-input-file -verify-diagnostics

func.func @tile_runs_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op 'tcu.tile_runs' must be a unit attribute}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.tile_runs = true}
  return
}

// -----

func.func @tile_runs_on_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op may not carry 'tcu.tile_runs' (only scf.parallel or gpu.func)}}
  scf.for %i = %c0 to %n step %c1 {
  } {tcu.tile_runs}
  return
}

// -----

func.func @min_blocks_type(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op 'tcu.min_blocks_per_sm' must be an i64}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.min_blocks_per_sm = 8 : i32}
  return
}

// -----

func.func @min_blocks_zero(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op 'tcu.min_blocks_per_sm' must be in [1, 32], got 0}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.min_blocks_per_sm = 0 : i64}
  return
}

// -----

func.func @min_blocks_too_many(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op 'tcu.min_blocks_per_sm' must be in [1, 32], got 33}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.min_blocks_per_sm = 33 : i64}
  return
}

// -----

// The kernel carries it as nvvm.minctasm.
gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op may not carry 'tcu.min_blocks_per_sm' (only scf.parallel)}}
  gpu.func @kernel() kernel attributes {tcu.min_blocks_per_sm = 4 : i64} {
    gpu.return
  }
}

// -----

func.func @chunk_loop_on_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op may not carry 'tcu.chunk_loop' (only scf.for)}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.chunk_loop}
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown tcu attribute 'tcu.exact_int'}}
func.func @unknown() attributes {tcu.exact_int} {
  return
}

// -----

func.func @max_registers_low(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op 'tcu.max_registers' must be in [24, 255], got 16}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.reduce
  } {tcu.max_registers = 16 : i64}
  return
}

// -----

func.func @max_registers_on_for(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op may not carry 'tcu.max_registers' (only scf.parallel)}}
  scf.for %i = %c0 to %n step %c1 {
  } {tcu.max_registers = 56 : i64}
  return
}
