// Appended to the dynamic kernel gather-bench prints for workload s1
// (data and indices 8x40, axis 1, int64): calls it on memrefs.

func.func private @printMemrefF32(memref<*xf32>)

func.func @run(%rows: index, %cols: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  %data = memref.alloc() : memref<8x40xf32>
  %indices = memref.alloc() : memref<8x40xi64>
  // data[i][j] = 100 i + j; indices[i][j] = 39 - j (row reversed).
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c40 step %c1 {
      %c100 = arith.constant 100 : index
      %a = arith.muli %i, %c100 : index
      %b = arith.addi %a, %j : index
      %bi = arith.index_cast %b : index to i64
      %f = arith.sitofp %bi : i64 to f32
      memref.store %f, %data[%i, %j] : memref<8x40xf32>
      %c39 = arith.constant 39 : index
      %r = arith.subi %c39, %j : index
      %ri = arith.index_cast %r : index to i64
      memref.store %ri, %indices[%i, %j] : memref<8x40xi64>
    }
  }
  %out = memref.alloc(%rows, %cols) : memref<?x?xf32>
  %d = memref.cast %data : memref<8x40xf32> to memref<?x?xf32>
  %x = memref.cast %indices : memref<8x40xi64> to memref<?x?xi64>
  call @gather(%d, %x, %out) : (memref<?x?xf32>, memref<?x?xi64>, memref<?x?xf32>) -> ()
  %corner = memref.subview %out[7, 0] [1, 4] [1, 1] : memref<?x?xf32> to memref<1x4xf32, strided<[?, 1], offset: ?>>
  %copy = memref.alloc() : memref<1x4xf32>
  memref.copy %corner, %copy : memref<1x4xf32, strided<[?, 1], offset: ?>> to memref<1x4xf32>
  %u = memref.cast %copy : memref<1x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @good() {
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  call @run(%c8, %c40) : (index, index) -> ()
  return
}

func.func @bad_out() {
  %c2 = arith.constant 2 : index
  %c40 = arith.constant 40 : index
  call @run(%c2, %c40) : (index, index) -> ()
  return
}
