# Debian packages of the install tree: `cpack -G DEB` in the build directory
# writes two (prefix /usr; configure with -DCMAKE_INSTALL_PREFIX=/usr for
# Debian's multiarch lib/<triple>/):
#
# - gather_<version>_<arch>.deb, to run gather: the tools, the shared
#   libraries (runtimes, C API), GatherPlugin.so and the docs (every install
#   component but gather-dev). Depends: what dpkg-shlibdeps (dpkg-dev) finds
#   for its ELF files (libmlir-22, libllvm22, libomp5-19, libc6, ...), each
#   package once. libLLVM.so.22.1 is found through the RUNPATH as a symlink
#   of llvm-22-dev, which dpkg-shlibdeps does not always follow to libllvm22:
#   debian/shlibs.local names the packages of libMLIR.so.22.1 and
#   libLLVM.so.22.1 (GatherDebianShlibs.cmake.in). Without dpkg-shlibdeps:
#   the packages that own libMLIR.so.22.1, libLLVM.so.22.1, libomp.so.5
#   (there is no libomp5-22, the libomp.so of libomp-22-dev points at
#   another version's) and libmpich.so, found with dpkg-query -S.
# - gather-dev_<version>_<arch>.deb, to build against gather: the headers,
#   the static libraries and the CMake package (install component
#   gather-dev). Depends: gather (= version) and what find_package(Gather)
#   needs: MLIR's and LLVM's CMake packages check files of the -dev, -tools
#   and linker-tools packages, GatherExecutionEngine's interface names
#   libomp.so (libomp-22-dev), GatherONNXImport's libonnx and protobuf; with
#   the MPI runtime, MPICH's compiler wrappers (libmpich-dev).

# gather_debian_package_of(<file> <out> [AS_NAMED]): the package of <file>'s
# real file, or with AS_NAMED of <file> itself (a symlink's own package).
function(gather_debian_package_of file out)
  set(${out} "" PARENT_SCOPE)
  find_program(GATHER_DPKG_QUERY dpkg-query)
  if(NOT GATHER_DPKG_QUERY)
    return()
  endif()
  get_filename_component(real "${file}" REALPATH)
  if("AS_NAMED" IN_LIST ARGN)
    set(real "${file}")
  endif()
  execute_process(COMMAND ${GATHER_DPKG_QUERY} -S "${real}"
    OUTPUT_VARIABLE owner RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0)
    string(REGEX REPLACE "[:,].*" "" owner "${owner}")  # "libomp5-19:amd64: ..."
    set(${out} "${owner}" PARENT_SCOPE)
  endif()
endfunction()

# The packages of MLIR's and LLVM's shared libraries, versioned.
set(llvm_version "${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}.${LLVM_VERSION_PATCH}")
set(llvm_depends)
set(GATHER_SHLIBS_LOCAL "")
find_program(GATHER_OBJDUMP objdump)
foreach(lib MLIR LLVM)
  get_target_property(configs ${lib} IMPORTED_CONFIGURATIONS)
  list(GET configs 0 config)
  get_target_property(location ${lib} IMPORTED_LOCATION_${config})
  gather_debian_package_of("${location}" owner)
  if(NOT owner)
    continue()
  endif()
  list(APPEND llvm_depends "${owner} (>= 1:${llvm_version})")
  # A debian/shlibs.local line: "<name> <version> <package>" of the SONAME
  # <name>.so.<version>.
  set(soname "")
  if(GATHER_OBJDUMP)
    execute_process(COMMAND ${GATHER_OBJDUMP} -p "${location}"
      OUTPUT_VARIABLE headers ERROR_QUIET)
    string(REGEX MATCH "SONAME +([^\n]+)" soname "${headers}")
    set(soname "${CMAKE_MATCH_1}")
  endif()
  if(soname MATCHES "^(.+)\\.so\\.(.+)$")
    string(APPEND GATHER_SHLIBS_LOCAL
      "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${owner} (>= 1:${llvm_version})\n")
  endif()
endforeach()

set(runtime_depends)
# gather-compile runs lld (lib/Compiler/SharedLibrary.cpp), which no ELF
# file of the package names. (It links libomp by its real file, libomp.so.5,
# whose package dpkg-shlibdeps finds.)
gather_debian_package_of("${GATHER_LINKER}" linker_package AS_NAMED)
if(linker_package)
  list(APPEND runtime_depends "${linker_package}")
endif()
# The Python package's extension module is built for one Python version and
# NumPy's C ABI, which no ELF file names either.
if(GATHER_ENABLE_PYTHON)
  math(EXPR next_minor "${Python3_VERSION_MINOR} + 1")
  list(APPEND runtime_depends
    "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})"
    "python3 (<< ${Python3_VERSION_MAJOR}.${next_minor})" "python3-numpy")
  find_program(GATHER_DPKG_QUERY dpkg-query)
  set(numpy_provides "")
  if(GATHER_DPKG_QUERY)
    execute_process(COMMAND ${GATHER_DPKG_QUERY} -W -f=\${Provides} python3-numpy
      OUTPUT_VARIABLE numpy_provides ERROR_QUIET)
  endif()
  if(numpy_provides MATCHES "(python3-numpy-abi[0-9]+)")
    list(APPEND runtime_depends "${CMAKE_MATCH_1}")
  endif()
endif()
find_program(GATHER_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GATHER_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/GatherDebianShlibs.cmake.in
    ${PROJECT_BINARY_DIR}/GatherDebianShlibs.cmake @ONLY)
  set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_BINARY_DIR}/GatherDebianShlibs.cmake)
else()
  list(APPEND runtime_depends ${llvm_depends})
  gather_debian_package_of("${GATHER_LIBOMP}" libomp_package)
  if(libomp_package)
    list(APPEND runtime_depends "${libomp_package}")
  endif()
  # libgather_mpi_runtime (when MPICH was found) links libmpich.so.
  if(TARGET gather_mpi_runtime)
    gather_debian_package_of("${GATHER_LIBMPICH}" libmpich_package)
    if(libmpich_package)
      list(APPEND runtime_depends "${libmpich_package}")
    endif()
  endif()
endif()
list(JOIN runtime_depends ", " CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS)

set(v "${LLVM_VERSION_MAJOR}")
set(dev_depends "gather (= ${PROJECT_VERSION})")
if(TARGET gather_mpi_runtime)
  list(APPEND dev_depends "libmpich-dev")
endif()
list(APPEND dev_depends "libmlir-${v}-dev" "mlir-${v}-tools" "llvm-${v}-dev"
  "llvm-${v}-linker-tools" "libomp-${v}-dev" "libonnx-dev" "libprotobuf-dev")
list(JOIN dev_depends ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
if(GATHER_DPKG_SHLIBDEPS)
  message(STATUS "Debian packages: gather Depends: ${CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS} and what dpkg-shlibdeps finds")
else()
  message(STATUS "Debian packages: gather Depends: ${CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS}")
endif()
message(STATUS "Debian packages: gather-dev Depends: ${CPACK_DEBIAN_DEV_PACKAGE_DEPENDS}")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gather)
set(CPACK_PACKAGE_VENDOR "gather")
set(CPACK_PACKAGE_CONTACT "gather developers <gather@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "ONNX GatherElements as an MLIR dialect, pipeline, tools and libraries")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# One package per component group: runtime (gather) and dev (gather-dev).
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gather)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME gather-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
include(CPack)

cpack_add_component_group(runtime
  DESCRIPTION "gather's tools, shared libraries, mlir-opt plugin and docs")
cpack_add_component_group(dev
  DESCRIPTION "gather's headers, static libraries and CMake package")
# Every install component (the tools' own: gather-opt, ...) goes into the
# runtime package, but gather-dev.
get_cmake_property(components COMPONENTS)
foreach(component IN LISTS components)
  if(component STREQUAL "gather-dev")
    cpack_add_component(${component} GROUP dev)
  else()
    cpack_add_component(${component} GROUP runtime)
  endif()
endforeach()
