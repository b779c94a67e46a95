# gather_export(<target> [NO_MLIR] [C_API])
#
# Gives a gather library its usage requirements (include directories of the
# source and build trees, or of the install tree), an alias gather::<target>
# for parent projects that embed gather, and an install rule into the export
# set GatherTargets, which cmake/CMakeLists.txt installs as
# lib/cmake/gather/GatherTargets.cmake (namespace gather::). Shared
# libraries go into the install component `gather` (the runtime package),
# static ones into `gather-dev` (cmake/GatherPackage.cmake).
#   NO_MLIR: the library uses neither MLIR nor LLVM headers (the runtimes).
#   C_API:   a C library: MLIR's headers, but no C++ standard requirement.
# Libraries made with add_mlir_library() pass it DISABLE_INSTALL: its own
# install rule would put them into MLIR's export set too.
function(gather_export name)
  cmake_parse_arguments(ARG "NO_MLIR;C_API" "" "" ${ARGN})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${GATHER_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${GATHER_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(NOT ARG_NO_MLIR)
    # Debian's imported MLIR and LLVM targets carry no include directories.
    target_include_directories(${name} SYSTEM INTERFACE
      ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
    if(NOT ARG_C_API)
      target_compile_features(${name} INTERFACE cxx_std_17)
    endif()
  endif()
  add_library(gather::${name} ALIAS ${name})
  install(TARGETS ${name} EXPORT GatherTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT gather-dev
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT gather
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gather)
endfunction()
