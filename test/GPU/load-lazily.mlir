// RUN: gather-opt %s --gather-gpu-load-lazily --split-input-file --verify-diagnostics | FileCheck %s

// gather-gpu-load-lazily: a gpu.binary (PTX: NUL-terminated, loaded at the
// object's optimization level) and its launches as calls that load the
// module at the first launch; the arguments' storage in the entry block;
// a launch without a stream on the null stream, then synchronized; one
// global destructor that unloads the module and clears the kernel slot.

// CHECK-NOT:   gpu.binary
// CHECK-DAG:   llvm.mlir.global internal @[[$KERNEL:__gather_gpu_k_kern_kernel]]() {{.*}} : !llvm.ptr
// CHECK-DAG:   llvm.mlir.global internal constant @[[$NAME:__gather_gpu_k_kern_name]]("kern\00")
// CHECK-DAG:   llvm.mlir.global internal @[[$MODULE:__gather_gpu_k_module]]() {{.*}} : !llvm.ptr
// CHECK-DAG:   llvm.mlir.global internal constant @[[$BINARY:__gather_gpu_k_binary]]("ptx text\00")
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME:    %[[S:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         %[[ARGS:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64)>
// CHECK:         %[[PARAMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK:         %[[M:.*]] = llvm.mlir.addressof @[[$MODULE]]
// CHECK:         %[[K:.*]] = llvm.mlir.addressof @[[$KERNEL]]
// CHECK:         %[[B:.*]] = llvm.mlir.addressof @[[$BINARY]]
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(9 : i64)
// CHECK:         %[[PTX:.*]] = llvm.mlir.constant(0 : i32)
// CHECK:         %[[O:.*]] = llvm.mlir.constant(3 : i32)
// CHECK:         %[[NM:.*]] = llvm.mlir.addressof @[[$NAME]]
// CHECK:         %[[F:.*]] = llvm.call @gatherCUDAGetKernel(%[[M]], %[[K]], %[[B]], %[[SIZE]], %[[PTX]], %[[O]], %[[NM]])
// CHECK:         llvm.store %[[S]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:         llvm.store %[[N]], %{{.*}} : i64, !llvm.ptr
// CHECK:         llvm.call @mgpuLaunchKernel(%[[F]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %[[PARAMS]], %{{.*}}, %{{.*}})
// CHECK-NOT:     mgpuStreamSynchronize
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @no_stream(
// CHECK:         llvm.call @mgpuLaunchKernel(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL:[0-9]+]],
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[NULL]])
// CHECK-LABEL: llvm.func internal @__gather_gpu_unload_modules()
// CHECK:         llvm.call @gatherCUDAUnloadModule(
// CHECK:         llvm.store {{.*}} : !llvm.ptr, !llvm.ptr
// CHECK:       llvm.mlir.global_dtors dtors = [@__gather_gpu_unload_modules]
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, assembly = "ptx text">]
  llvm.func @f(%stream: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func <%stream : !llvm.ptr> @k::@kern blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) : i64 args(%stream : !llvm.ptr, %n : i64)
    llvm.return
  }
  llvm.func @no_stream(%n: i64) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) : i64 args(%n : i64)
    llvm.return
  }
}

// -----

// A cubin: loaded as an image (format 1), not NUL-terminated.
// CHECK: llvm.mlir.global internal constant @__gather_gpu_c_binary("\7FELF")
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: llvm.mlir.constant(1 : i32)
module attributes {gpu.container_module} {
  gpu.binary @c [#gpu.object<#nvvm.target, bin = "\7FELF">]
  llvm.func @f(%n: i64) {
    gpu.launch_func @c::@kern blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.binary' op holds 2 objects; gather-gpu-load-lazily loads binaries of one}}
  gpu.binary @two [#gpu.object<#nvvm.target, assembly = "a">, #gpu.object<#nvvm.target<chip = "sm_80">, assembly = "b">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.binary' op holds LLVM IR (format offload), which the CUDA driver cannot load}}
  gpu.binary @ir [#gpu.object<#nvvm.target, offload = "BC">]
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
  llvm.func @f(%n: i64) {
    // expected-error @below {{'gpu.launch_func' op with a cluster size: gather-gpu-load-lazily launches without clusters}}
    gpu.launch_func @k::@kern clusters in (%n, %n, %n) blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
  gpu.module @other {
    gpu.func @kern() kernel {
      gpu.return
    }
  }
  llvm.func @f(%n: i64) {
    // expected-error @below {{'gpu.launch_func' op launches a kernel of 'other', which is not a gpu.binary of this module (gpu-module-to-binary first)}}
    gpu.launch_func @other::@kern blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
  func.func @f(%n: index) {
    // expected-error @below {{'gpu.launch_func' op is not in an llvm.func (gpu-to-llvm first)}}
    gpu.launch_func @k::@kern blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.binary' op holds an object for #rocdl.target<chip = "gfx942">; gather-gpu-load-lazily loads NVVM objects (the CUDA driver)}}
  gpu.binary @amd [#gpu.object<#rocdl.target<chip = "gfx942">, bin = "ELF">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.binary' op has optimization level 5000000000; the CUDA driver takes 0 to 4}}
  gpu.binary @k [#gpu.object<#nvvm.target, properties = {O = 5000000000 : i64}, assembly = "ptx">]
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
  llvm.func @f(%n: i64) {
    %t = gpu.wait async
    // expected-error @below {{'gpu.launch_func' op has async tokens; gpu-to-llvm lowers them to streams first}}
    gpu.launch_func [%t] @k::@kern blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "ptx">]
  llvm.func @f(%n: i64) {
    // expected-error @below {{'gpu.launch_func' op runs on a stream of type 'i64', not !llvm.ptr (gpu-to-llvm first)}}
    gpu.launch_func <%n : i64> @k::@kern blocks in (%n, %n, %n) threads in (%n, %n, %n) : i64
    llvm.return
  }
}
