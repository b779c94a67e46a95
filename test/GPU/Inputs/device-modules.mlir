// Device modules for data-layout.test.
module attributes {gpu.container_module} {
  gpu.module @plain {
  }
  gpu.module @own attributes {llvm.data_layout = "e"} {
  }
  gpu.module @dlti attributes {dlti.dl_spec = #dlti.dl_spec<"dlti.endianness" = "little">} {
  }
}
