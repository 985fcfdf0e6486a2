// RUN: tcuc-opt %s --split-input-file --tcu-outline-kernels --verify-diagnostics

// expected-error @below {{'scalar_arg': argument 1 is 'index', but GPU kernels for the tcuc runtime take rank-1 memref arguments (and an index, the runtime segment size, as the third, and an f32, a runtime decay, as the last) only: flatten it, or add host-launch=true to tcu-to-ptx}}
func.func @scalar_arg(%in: memref<?xf16>, %k: index) {
  return
}

// -----

func.func @work_outside_loops(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.0 : f32
  // expected-error @below {{'memref.store' cannot run on the GPU outside a kernel (the mma form puts all work in scf.parallel loops): lower it to loops first}}
  memref.store %x, %in[%c0] : memref<?xf32>
  return
}

// -----

func.func @two_dim_loop(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @below {{expected a 1-D scf.parallel from 0 step 1}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    scf.reduce
  }
  return
}

// -----

func.func @unknown_size(%in: memref<?xf32>, %m: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %k = memref.load %m[%c0] : memref<?xindex>
  // expected-error @below {{scratch size is not an expression of the input length}}
  %s = memref.alloc(%k) : memref<?xf32>
  memref.dealloc %s : memref<?xf32>
  return
}


// -----

// A block work item's phases loop over at most the 32 warps of a block.
// expected-error @below {{a block work item of 64 warps exceeds the GPU's 32 warps per block}}
func.func @too_many_warps(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%w) = (%c0) to (%c64) step (%c1) {
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

func.func @phase_with_two_dims(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    // expected-error @below {{expected a 1-D scf.parallel from 0 step 1 without results or nesting (a phase of the warps of a block)}}
    scf.parallel (%w, %v) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// tcu.block_prefix waits at a block barrier: its phase must give every warp
// of the block one iteration (the other phase makes the block 8 warps).
func.func @block_prefix_in_a_short_phase(%in: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %x = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %m = memref.alloc() : memref<8xf32>
    scf.parallel (%w) = (%c0) to (%c8) step (%c1) {
      scf.reduce
    }
    // expected-error @below {{a phase with tcu.block_prefix or tcu.block_lookback must have one iteration per warp of the block (8)}}
    scf.parallel (%w) = (%c0) to (%c4) step (%c1) {
      %p = tcu.block_prefix %x, %m[%c0], %w of 4 : memref<8xf32>, f32
      scf.reduce
    }
    memref.dealloc %m : memref<8xf32>
    scf.reduce
  }
  return
}
