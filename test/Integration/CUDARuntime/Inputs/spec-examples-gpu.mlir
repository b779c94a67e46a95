// The ONNX spec's three GatherElements examples on the GPU, written by hand
// in the gpu dialect (one thread per output element), for the tests of
// gather's CUDA runtime and the ahead-of-time route (docs/GPU.md) until the
// onnx-to-llvm pipeline builds the kernels itself. Lowered with upstream's
// gpu-lower-to-nvvm-pipeline, the host code calls the mgpu* functions of
// libgather_cuda_runtime and prints with libgather_runtime's gatherPrintF32:
//   result 0: tensor<2x2xf32> = [[1, 1], [4, 3]]
//   result 1: tensor<2x3xf32> = [[4, 8, 3], [7, 2, 3]]
//   result 2: tensor<2x3xf32> = [[7, 5, 3], [4, 2, 3]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[i, j] = data[idx[i, j], j] (axis 0) or data[i, idx[i, j]] (axis 1).
    gpu.func @gather_2d(%data: memref<?x?xf32>, %idx: memref<?x?xi64>,
                        %out: memref<?x?xf32>, %axis: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %k64 = memref.load %idx[%i, %j] : memref<?x?xi64>
      %k = arith.index_cast %k64 : i64 to index
      %size = memref.dim %data, %axis : memref<?x?xf32>
      %neg = arith.cmpi slt, %k, %c0 : index
      %kpos = arith.addi %k, %size : index
      %kn = arith.select %neg, %kpos, %k : index
      %is0 = arith.cmpi eq, %axis, %c0 : index
      %r = arith.select %is0, %kn, %i : index
      %c = arith.select %is0, %j, %kn : index
      %v = memref.load %data[%r, %c] : memref<?x?xf32>
      memref.store %v, %out[%i, %j] : memref<?x?xf32>
      gpu.return
    }
  }
  memref.global "private" constant @data0 : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
  memref.global "private" constant @idx0 : memref<2x2xi64> = dense<[[0, 0], [1, 0]]>
  memref.global "private" constant @data1 : memref<3x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]>
  memref.global "private" constant @idx1 : memref<2x3xi64> = dense<[[1, 2, 0], [2, 0, 0]]>
  memref.global "private" constant @idx2 : memref<2x3xi64> = dense<[[-1, -2, 0], [-2, 0, 0]]>
  func.func private @gatherPrintF32(memref<*xf32>, i64) attributes {llvm.emit_c_interface}

  // Copies in, launches one thread per output element, copies out, prints.
  func.func @run(%data: memref<?x?xf32>, %idx: memref<?x?xi64>, %axis: index, %n: i64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d0 = memref.dim %data, %c0 : memref<?x?xf32>
    %d1 = memref.dim %data, %c1 : memref<?x?xf32>
    %i0 = memref.dim %idx, %c0 : memref<?x?xi64>
    %i1 = memref.dim %idx, %c1 : memref<?x?xi64>
    %out = memref.alloc(%i0, %i1) : memref<?x?xf32>
    %t0 = gpu.wait async
    %dd, %t1 = gpu.alloc async [%t0] (%d0, %d1) : memref<?x?xf32>
    %dx, %t2 = gpu.alloc async [%t1] (%i0, %i1) : memref<?x?xi64>
    %do, %t3 = gpu.alloc async [%t2] (%i0, %i1) : memref<?x?xf32>
    %t4 = gpu.memcpy async [%t3] %dd, %data : memref<?x?xf32>, memref<?x?xf32>
    %t5 = gpu.memcpy async [%t4] %dx, %idx : memref<?x?xi64>, memref<?x?xi64>
    %t6 = gpu.launch_func async [%t5] @kernels::@gather_2d blocks in (%i0, %c1, %c1) threads in (%i1, %c1, %c1) args(%dd : memref<?x?xf32>, %dx : memref<?x?xi64>, %do : memref<?x?xf32>, %axis : index)
    %t7 = gpu.memcpy async [%t6] %out, %do : memref<?x?xf32>, memref<?x?xf32>
    %t8 = gpu.dealloc async [%t7] %dd : memref<?x?xf32>
    %t9 = gpu.dealloc async [%t8] %dx : memref<?x?xi64>
    %t10 = gpu.dealloc async [%t9] %do : memref<?x?xf32>
    gpu.wait [%t10]
    %u = memref.cast %out : memref<?x?xf32> to memref<*xf32>
    func.call @gatherPrintF32(%u, %n) : (memref<*xf32>, i64) -> ()
    memref.dealloc %out : memref<?x?xf32>
    return
  }

  func.func @main() -> i32 {
    // (Data and indices of test_gather_elements_0, _1, _negative_indices.)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %data0 = memref.get_global @data0 : memref<2x2xf32>
    %idx0 = memref.get_global @idx0 : memref<2x2xi64>
    %data1 = memref.get_global @data1 : memref<3x3xf32>
    %idx1 = memref.get_global @idx1 : memref<2x3xi64>
    %idx2 = memref.get_global @idx2 : memref<2x3xi64>
    %a = memref.cast %data0 : memref<2x2xf32> to memref<?x?xf32>
    %b = memref.cast %idx0 : memref<2x2xi64> to memref<?x?xi64>
    %c = memref.cast %data1 : memref<3x3xf32> to memref<?x?xf32>
    %d = memref.cast %idx1 : memref<2x3xi64> to memref<?x?xi64>
    %e = memref.cast %idx2 : memref<2x3xi64> to memref<?x?xi64>
    %n0 = arith.constant 0 : i64
    %n1 = arith.constant 1 : i64
    %n2 = arith.constant 2 : i64
    func.call @run(%a, %b, %c1, %n0) : (memref<?x?xf32>, memref<?x?xi64>, index, i64) -> ()
    func.call @run(%c, %d, %c0, %n1) : (memref<?x?xf32>, memref<?x?xi64>, index, i64) -> ()
    func.call @run(%c, %e, %c0, %n2) : (memref<?x?xf32>, memref<?x?xi64>, index, i64) -> ()
    %z = arith.constant 0 : i32
    return %z : i32
  }
}
