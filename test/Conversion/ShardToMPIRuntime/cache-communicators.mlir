// gather-shard-cache-communicators: each mpi.comm_split (convert-shard-to-mpi
// makes one before every collective over a group) becomes a call of
// gatherMPICommSplitOnce with an internal i64 slot of its own, so that a
// kernel makes the communicator once, not once per call. A split with a
// !mpi.retval, a module for another MPI implementation and the splits of a
// nested module (lowered on its own) are left.
// RUN: gather-opt %s --split-input-file --gather-shard-cache-communicators --verify-diagnostics | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal @[[SITE0:__gather_mpi_comm_site[_0-9]*]](0 : i64) {{.*}}: i64
// CHECK-DAG: llvm.mlir.global internal @[[SITE1:__gather_mpi_comm_site[_0-9]*]](0 : i64) {{.*}}: i64
// CHECK-DAG: func.func private @gatherMPICommSplitOnce(i64, i32, i32, !llvm.ptr) -> i64
// CHECK-LABEL: func.func @two_sites(
// CHECK-SAME: %[[COLOR:[^:]*]]: i32, %[[KEY:[^:]*]]: i32
// CHECK: %[[WORLD:.*]] = mpi.comm_world : !mpi.comm
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @{{__gather_mpi_comm_site[_0-9]*}} : !llvm.ptr
// CHECK: %[[PARENT:.*]] = builtin.unrealized_conversion_cast %[[WORLD]] : !mpi.comm to i64
// CHECK: %[[NEW:.*]] = call @gatherMPICommSplitOnce(%[[PARENT]], %[[COLOR]], %[[KEY]], %[[SLOT]]) : (i64, i32, i32, !llvm.ptr) -> i64
// CHECK: %[[COMM:.*]] = builtin.unrealized_conversion_cast %[[NEW]] : i64 to !mpi.comm
// CHECK: mpi.barrier(%[[COMM]])
// CHECK: call @gatherMPICommSplitOnce(
// CHECK-NOT: mpi.comm_split
// CHECK-LABEL: func.func @with_retval(
// CHECK: mpi.comm_split
// CHECK-LABEL: module @nested
// CHECK: mpi.comm_split
module {
  func.func @two_sites(%color: i32, %key: i32) {
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
    mpi.barrier(%comm)
    %comm2 = mpi.comm_split(%world, %key, %color) : !mpi.comm
    mpi.barrier(%comm2)
    return
  }
  func.func @with_retval(%color: i32, %key: i32) -> !mpi.retval {
    %world = mpi.comm_world : !mpi.comm
    %retval, %comm = mpi.comm_split(%world, %color, %key) : !mpi.retval, !mpi.comm
    return %retval : !mpi.retval
  }
  module @nested {
    func.func @inner(%color: i32, %key: i32) -> !mpi.comm {
      %world = mpi.comm_world : !mpi.comm
      %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
      return %comm : !mpi.comm
    }
  }
}

// -----

// The program's own splits (marked by gather-shard-prepare-for-mpi) may run
// with other arguments each time: left.
// CHECK-LABEL: func.func @own(
// CHECK: mpi.comm_split({{.*}}) {gather.own_comm_split}
// CHECK-NOT: call @gatherMPICommSplitOnce
module {
  func.func @own(%color: i32, %key: i32) -> !mpi.comm {
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %color, %key) {gather.own_comm_split} : !mpi.comm
    return %comm : !mpi.comm
  }
}

// -----

// A split in a gpu.module (a symbol table of its own, which cannot reach the
// outer module's slots): left.
// CHECK-LABEL: gpu.module @dev
// CHECK: mpi.comm_split
// CHECK-NOT: call @gatherMPICommSplitOnce
module attributes {gpu.container_module} {
  gpu.module @dev {
    func.func @f(%color: i32, %key: i32) {
      %world = mpi.comm_world : !mpi.comm
      %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
      mpi.barrier(%comm)
      return
    }
  }
}

// -----

// Any implementation but OpenMPI is lowered for MPICH: cached.
// CHECK-LABEL: func.func @unknown_implementation(
// CHECK: call @gatherMPICommSplitOnce(
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "garbage">} {
  func.func @unknown_implementation(%color: i32, %key: i32) -> !mpi.comm {
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
    return %comm : !mpi.comm
  }
}

// -----

// OpenMPI's communicators are not MPICH's integers: left as they are.
// CHECK-LABEL: func.func @openmpi(
// CHECK: mpi.comm_split
// CHECK-NOT: gatherMPICommSplitOnce
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
  func.func @openmpi(%color: i32, %key: i32) -> !mpi.comm {
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
    return %comm : !mpi.comm
  }
}

// -----

// A symbol of the runtime's name that is not its declaration: an error.
module {
  // expected-error@+1 {{symbol 'gatherMPICommSplitOnce' is reserved for gather's runtime}}
  func.func @gatherMPICommSplitOnce() {
    return
  }
  func.func @user(%color: i32, %key: i32) -> !mpi.comm {
    %world = mpi.comm_world : !mpi.comm
    %comm = mpi.comm_split(%world, %color, %key) : !mpi.comm
    return %comm : !mpi.comm
  }
}
