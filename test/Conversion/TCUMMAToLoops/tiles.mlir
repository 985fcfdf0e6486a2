// RUN: tcuc-opt %s --convert-tcu-mma-to-loops | FileCheck %s

// Tile accesses on the CPU: 16 masked 1-D accesses, one per line, so that
// no masked-off element is touched whatever its address.

// Line i starts at base + i * stride; its mask keeps the elements below
// the line length and below the limit.
// CHECK-LABEL: func.func @load_rows
// CHECK-COUNT-16: vector.maskedload %arg0
// CHECK-NOT: vector.maskedload
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @load_rows(%in: memref<?xf16>, %i: index, %s: index, %n: index) -> vector<16x16xf16> {
  %a = tcu.load_tile <rows> %in[%i] stride %s line %s limit %n : memref<?xf16> -> vector<16x16xf16>
  return %a : vector<16x16xf16>
}

// The cols layout loads lines as rows, then transposes.
// CHECK-LABEL: func.func @load_cols
// CHECK-COUNT-16: vector.maskedload
// CHECK: vector.transpose %{{.*}}, [1, 0]
func.func @load_cols(%in: memref<?xi8>, %i: index, %s: index, %n: index) -> vector<16x16xi8> {
  %a = tcu.load_tile <cols> %in[%i] stride %s line %s limit %n : memref<?xi8> -> vector<16x16xi8>
  return %a : vector<16x16xi8>
}

// The quads order permutes each loaded line (position p to its column)
// and each stored row back; cache hints are ignored.
// CHECK-LABEL: func.func @quads
// CHECK: vector.maskedload
// CHECK-NEXT: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15]
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK: vector.maskedstore %arg1
func.func @quads(%in: memref<?xf16>, %out: memref<?xf16>, %i: index, %t: vector<16x16xf32>) -> vector<16x16xf16> {
  %a = tcu.load_tile <rows> %in[%i] stride %i line %i limit %i order <quads> cache <evict_first> : memref<?xf16> -> vector<16x16xf16>
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i order <quads> : vector<16x16xf32> -> memref<?xf16>
  return %a : vector<16x16xf16>
}

// Stores convert each row to the buffer's type (f32 -> f16 rounds to
// nearest even).
// CHECK-LABEL: func.func @store
// CHECK-COUNT-16: vector.maskedstore %arg0
func.func @store(%out: memref<?xf32>, %i: index, %t: vector<16x16xf32>) {
  tcu.store_tile %t, %out[%i] stride %i line %i limit %i cache <streaming> : vector<16x16xf32> -> memref<?xf32>
  return
}

// tcu.row_sums: a vector reduction a row (or a block of columns),
// broadcast back; tcu.store_row with a step shuffles columns 0, step, ...
// to the front, and `accumulate` adds what is stored.
// CHECK-LABEL: func.func @row_sums
// CHECK: vector.reduction <add>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: %[[OLD:.*]] = vector.maskedload %arg1
// CHECK: arith.addf %[[OLD]]
// CHECK: vector.maskedstore %arg1
func.func @row_sums(%v: vector<16x16xf32>, %out: memref<?xf32>, %o: index) {
  %s = tcu.row_sums %v block 4 : vector<16x16xf32>
  tcu.store_row %s[0], %out[%o] limit %o step 4 {accumulate} : vector<16x16xf32> -> memref<?xf32>
  return
}

// A mirrored line (reverse scans): a masked gather of the 16 physical
// indices m - start - j, the mask narrowed to those inside the buffer (an
// unsigned compare) and the others' indices set to 0.
// CHECK-LABEL: func.func @load_mirrored
// CHECK: %[[DIM:.*]] = memref.dim %arg0
// CHECK: arith.cmpi ult
// CHECK: arith.select
// CHECK: vector.gather %arg0[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf16>, vector<16xindex>, vector<16xi1>, vector<16xf16> into vector<16xf16>
// CHECK-NOT: vector.maskedload
// CHECK: return
func.func @load_mirrored(%in: memref<?xf16>, %i: index, %n: index, %m: index) -> vector<16x16xf16> {
  %c16 = arith.constant 16 : index
  %a = tcu.load_tile <rows> %in[%i] stride %c16 line %c16 limit %n mirror %m : memref<?xf16> -> vector<16x16xf16>
  return %a : vector<16x16xf16>
}

// CHECK-LABEL: func.func @store_mirrored
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK: vector.scatter %arg1[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf16>, vector<16xindex>, vector<16xi1>, vector<16xf16>
// CHECK-NOT: vector.maskedstore
// CHECK: return
func.func @store_mirrored(%t: vector<16x16xf32>, %out: memref<?xf16>, %i: index, %n: index, %m: index) {
  %c16 = arith.constant 16 : index
  tcu.store_tile %t, %out[%i] stride %c16 line %c16 limit %n mirror %m : vector<16x16xf32> -> memref<?xf16>
  return
}

// tcu.linear_recurrence: the rows' recurrences a column at a time (the
// tiles transposed); in tile order the h before each row first follows
// from the rows' products of decays and sums.
// CHECK-LABEL: func.func @linear_recurrence
// CHECK: arith.extf %{{.*}} : vector<16x16xf16> to vector<16x16xf32>
// CHECK: vector.transpose
// CHECK-COUNT-16: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: vector.transpose
// CHECK-NOT: tcu.linear_recurrence
func.func @linear_recurrence(%a: vector<16x16xf32>, %x: vector<16x16xf16>, %h: f32) -> vector<16x16xf32> {
  %r = tcu.linear_recurrence %a, %x, %h rows : vector<16x16xf16>
  return %r : vector<16x16xf32>
}

// The lanes order (#tcu.order<lanes>): a tile loaded in line order, then
// its 256 elements permuted (element (0, 2) holds place 8, the first of
// lane 1); the recurrence puts its tiles (widened) back in line order,
// scans, and permutes the result; a store permutes back first.
// CHECK-LABEL: func.func @lanes
// CHECK: vector.shape_cast %{{.*}} : vector<16x16xf16> to vector<256xf16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 8, 9, 16, 17, 24, 25, 4, 5, 12, 13, 20, 21, 28, 29, 32, 33,
// CHECK: vector.shuffle {{.*}} : vector<256xf32>, vector<256xf32>
// CHECK: vector.shuffle {{.*}} : vector<256xf32>, vector<256xf32>
// CHECK: vector.transpose
// CHECK: vector.shuffle {{.*}} : vector<256xf32>, vector<256xf32>
// CHECK: vector.shuffle {{.*}} : vector<256xf32>, vector<256xf32>
// CHECK: vector.maskedstore
func.func @lanes(%in: memref<?xf16>, %out: memref<?xf32>, %a: vector<16x16xf32>, %h: f32, %i: index, %n: index) {
  %c16 = arith.constant 16 : index
  %x = tcu.load_tile <rows> %in[%i] stride %c16 line %c16 limit %n order <lanes> : memref<?xf16> -> vector<16x16xf16>
  %r = tcu.linear_recurrence %a, %x, %h order <lanes> : vector<16x16xf16>
  tcu.store_tile %r, %out[%i] stride %c16 line %c16 limit %n order <lanes> : vector<16x16xf32> -> memref<?xf32>
  return
}

// A scalar decay is broadcast and the heads select 0 for it; the lanes
// order then as above.
// CHECK-LABEL: func.func @heads
// CHECK: %[[A:.*]] = vector.broadcast %{{.*}} : f32 to vector<16x16xf32>
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[A]] : vector<16x16xi1>, vector<16x16xf32>
// CHECK: vector.transpose
// CHECK-NOT: tcu.linear_recurrence
func.func @heads(%a: f32, %x: vector<16x16xf16>, %h: f32, %m: vector<16x16xi1>) -> vector<16x16xf32> {
  %r = tcu.linear_recurrence %a, %x, %h heads %m order <lanes> : vector<16x16xf16>, f32
  return %r : vector<16x16xf32>
}

// tcu.gather: a masked vector.gather a row, each place base + offset kept
// to [0, limit) (masked-off places read nothing).
// CHECK-LABEL: func.func @gather
// CHECK-COUNT-16: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xindex>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-NOT: tcu.gather
func.func @gather(%d: memref<?xf32>, %base: index, %i: vector<16x16xi32>, %k: index) -> vector<16x16xf32> {
  %r = tcu.gather %d[%base + %i] limit %k : vector<16x16xi32>, memref<?xf32> -> vector<16x16xf32>
  return %r : vector<16x16xf32>
}
