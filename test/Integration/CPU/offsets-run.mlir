// Segments from offsets (CSR) on the CPU backend, against plain loops over
// the same offsets in the same program. Inputs are small integers, so every
// sum is exact and the two must agree element for element. The offsets
// hold empty segments (first, middle, last), one-element segments, and
// segments that begin and end off tile boundaries and span several tiles.
// RUN: tcuc-opt %s --tcu-to-cpu | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s

// CHECK: reduce f16, i64 offsets: mismatches
// CHECK-NEXT: 0
// CHECK: inclusive scan i8, i32 offsets: mismatches
// CHECK-NEXT: 0
// CHECK: exclusive scan f16, i64 offsets: mismatches
// CHECK-NEXT: 0
// CHECK: reduce bf16, all segments empty: mismatches
// CHECK-NEXT: 0
// The reference itself is not trivial: the segment sums it compared.
// CHECK: reference sums
// (computed apart, in Python: [sum(x[o[s]:o[s+1]]) for s in range(9)])
// CHECK-NEXT: 0
// CHECK-NEXT: -5
// CHECK-NEXT: 0
// CHECK-NEXT: -2
// CHECK-NEXT: 4
// CHECK-NEXT: -4
// CHECK-NEXT: 0
// CHECK-NEXT: 5
// CHECK-NEXT: 0

memref.global "private" constant @off64 : memref<10xi64> =
    dense<[0, 0, 1, 1, 5, 300, 301, 301, 813, 1000]>
memref.global "private" constant @off32 : memref<10xi32> =
    dense<[0, 0, 1, 1, 5, 300, 301, 301, 813, 1000]>
memref.global "private" constant @empty : memref<4xi64> =
    dense<[0, 0, 0, 0]>

// x[i] = (37 i mod 11) - 5, as f16, bf16 and i8.
func.func @value(%i: index) -> i32 {
  %c37 = arith.constant 37 : index
  %c11 = arith.constant 11 : index
  %c5 = arith.constant 5 : i32
  %p = arith.muli %i, %c37 : index
  %r = arith.remui %p, %c11 : index
  %v = arith.index_cast %r : index to i32
  %m = arith.subi %v, %c5 : i32
  return %m : i32
}

// Segment s of the offsets: [off[s], off[s+1]) as indices.
func.func @bounds64(%off: memref<10xi64>, %s: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %a = memref.load %off[%s] : memref<10xi64>
  %s1 = arith.addi %s, %c1 : index
  %b = memref.load %off[%s1] : memref<10xi64>
  %ai = arith.index_cast %a : i64 to index
  %bi = arith.index_cast %b : i64 to index
  return %ai, %bi : index, index
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %n = arith.constant 1000 : index
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %in16 = memref.alloc(%n) : memref<?xf16>
  %inb = memref.alloc(%n) : memref<?xbf16>
  %in8 = memref.alloc(%n) : memref<?xi8>
  scf.for %i = %c0 to %n step %c1 {
    %v = func.call @value(%i) : (index) -> i32
    %f = arith.sitofp %v : i32 to f16
    %g = arith.sitofp %v : i32 to bf16
    %b = arith.trunci %v : i32 to i8
    memref.store %f, %in16[%i] : memref<?xf16>
    memref.store %g, %inb[%i] : memref<?xbf16>
    memref.store %b, %in8[%i] : memref<?xi8>
  }
  %off64 = memref.get_global @off64 : memref<10xi64>
  %off32 = memref.get_global @off32 : memref<10xi32>

  // Reduce: one sum per segment (0 for the empty ones).
  %sums = memref.alloc() : memref<9xf32>
  tcu.segmented_reduce <add> %in16 into %sums offsets %off64
      : memref<?xf16>, memref<10xi64> -> memref<9xf32>
  %ref = memref.alloc() : memref<9xf32>
  %bad = scf.for %s = %c0 to %c9 step %c1 iter_args(%k = %c0) -> (index) {
    %a, %b = func.call @bounds64(%off64, %s) : (memref<10xi64>, index) -> (index, index)
    %t = scf.for %i = %a to %b step %c1 iter_args(%acc = %z) -> (f32) {
      %x = memref.load %in16[%i] : memref<?xf16>
      %w = arith.extf %x : f16 to f32
      %u = arith.addf %acc, %w : f32
      scf.yield %u : f32
    }
    memref.store %t, %ref[%s] : memref<9xf32>
    %got = memref.load %sums[%s] : memref<9xf32>
    %ne = arith.cmpf une, %got, %t : f32
    %k1 = arith.addi %k, %c1 : index
    %kk = arith.select %ne, %k1, %k : index
    scf.yield %kk : index
  }
  vector.print str "reduce f16, i64 offsets: mismatches\n"
  vector.print %bad : index

  // Inclusive scan of i8 into i32 with i32 offsets.
  %scan = memref.alloc(%n) : memref<?xi32>
  tcu.segmented_scan <add> inclusive %in8 into %scan offsets %off32
      : memref<?xi8>, memref<10xi32> -> memref<?xi32>
  %bad2 = scf.for %s = %c0 to %c9 step %c1 iter_args(%k = %c0) -> (index) {
    %a, %b = func.call @bounds64(%off64, %s) : (memref<10xi64>, index) -> (index, index)
    %r:2 = scf.for %i = %a to %b step %c1 iter_args(%acc = %zi, %kk = %k) -> (i32, index) {
      %x = memref.load %in8[%i] : memref<?xi8>
      %w = arith.extsi %x : i8 to i32
      %u = arith.addi %acc, %w : i32
      %got = memref.load %scan[%i] : memref<?xi32>
      %ne = arith.cmpi ne, %got, %u : i32
      %k1 = arith.addi %kk, %c1 : index
      %k2 = arith.select %ne, %k1, %kk : index
      scf.yield %u, %k2 : i32, index
    }
    scf.yield %r#1 : index
  }
  vector.print str "inclusive scan i8, i32 offsets: mismatches\n"
  vector.print %bad2 : index

  // Exclusive scan of f16 into f32 with i64 offsets.
  %escan = memref.alloc(%n) : memref<?xf32>
  tcu.segmented_scan <add> exclusive %in16 into %escan offsets %off64
      : memref<?xf16>, memref<10xi64> -> memref<?xf32>
  %bad3 = scf.for %s = %c0 to %c9 step %c1 iter_args(%k = %c0) -> (index) {
    %a, %b = func.call @bounds64(%off64, %s) : (memref<10xi64>, index) -> (index, index)
    %r:2 = scf.for %i = %a to %b step %c1 iter_args(%acc = %z, %kk = %k) -> (f32, index) {
      %got = memref.load %escan[%i] : memref<?xf32>
      %ne = arith.cmpf une, %got, %acc : f32
      %k1 = arith.addi %kk, %c1 : index
      %k2 = arith.select %ne, %k1, %kk : index
      %x = memref.load %in16[%i] : memref<?xf16>
      %w = arith.extf %x : f16 to f32
      %u = arith.addf %acc, %w : f32
      scf.yield %u, %k2 : f32, index
    }
    scf.yield %r#1 : index
  }
  vector.print str "exclusive scan f16, i64 offsets: mismatches\n"
  vector.print %bad3 : index

  // Every segment empty (offsets all 0, n = 0 elements read): the sums are
  // 0, written over a poisoned output.
  %empty = memref.get_global @empty : memref<4xi64>
  %none = memref.alloc() : memref<3xf32>
  %nan = arith.constant 0x7FC00000 : f32
  scf.for %s = %c0 to %c3 step %c1 {
    memref.store %nan, %none[%s] : memref<3xf32>
  }
  %in0 = memref.alloc(%c0) : memref<?xbf16>
  tcu.segmented_reduce <add> %in0 into %none offsets %empty
      : memref<?xbf16>, memref<4xi64> -> memref<3xf32>
  %bad4 = scf.for %s = %c0 to %c3 step %c1 iter_args(%k = %c0) -> (index) {
    %got = memref.load %none[%s] : memref<3xf32>
    %ne = arith.cmpf une, %got, %z : f32
    %k1 = arith.addi %k, %c1 : index
    %kk = arith.select %ne, %k1, %k : index
    scf.yield %kk : index
  }
  vector.print str "reduce bf16, all segments empty: mismatches\n"
  vector.print %bad4 : index

  vector.print str "reference sums\n"
  scf.for %s = %c0 to %c9 step %c1 {
    %t = memref.load %ref[%s] : memref<9xf32>
    vector.print %t : f32
  }
  return
}
