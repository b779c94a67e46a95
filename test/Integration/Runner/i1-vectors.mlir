// REQUIRES: jit
// XFAIL: *
// A known upstream fault, not worked around yet (docs/UpstreamWorkarounds.md):
// MLIR 22's convert-vector-to-llvm lowers a vector<Nxi1> read or write of an
// i1 buffer to an LLVM load or store of <N x i1>, N packed bits, while the
// buffer holds one byte per element. A user's i1 vector code then reads and
// writes the wrong bits. gather's own code never does (it scalarizes i1: the
// remark says "elements that are not whole-byte integers or floats"). This
// test checks the right values and fails until the fault is fixed; then it
// passes unexpectedly, and the XFAIL and the docs' entry go.
// RUN: gather-run %s --function=sel --input=4xi1=0,1,0,1 | FileCheck %s
// CHECK: result 0: tensor<4xi1> = [false, true, true, false]

// The first two elements of x, the last two of [true, false, true, false].
func.func @sel(%x: tensor<4xi1>) -> tensor<4xi1> {
  %c0 = arith.constant 0 : index
  %p = arith.constant false
  %cst = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %m = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  %v = vector.transfer_read %x[%c0], %p : tensor<4xi1>, vector<4xi1>
  %o = vector.transfer_read %cst[%c0], %p : tensor<4xi1>, vector<4xi1>
  %s = arith.select %m, %v, %o : vector<4xi1>, vector<4xi1>
  %e = tensor.empty() : tensor<4xi1>
  %r = vector.transfer_write %s, %e[%c0] : vector<4xi1>, tensor<4xi1>
  return %r : tensor<4xi1>
}
