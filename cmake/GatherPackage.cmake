# A Debian package of the install tree: `cpack -G DEB` in the build directory
# writes gather_<version>_<arch>.deb (prefix /usr; configure with
# -DCMAKE_INSTALL_PREFIX=/usr for Debian's multiarch lib/<triple>/).
#
# Depends: the packages that ship the shared libraries the tools and
# libraries link (libMLIR.so.22.1, libLLVM.so.22.1, libomp.so.5: found with
# dpkg-query -S, as there is no libomp5-22 and the libomp.so of libomp-22-dev
# points at another version's), plus what find_package(Gather) needs:
# MLIR's and LLVM's CMake packages check files of the -dev, -tools and
# linker-tools packages, and GatherONNXImport's interface names libonnx and
# protobuf. dpkg-shlibdeps (dpkg-dev) adds libc6, libstdc++6 and the like;
# it cannot be relied on for the libraries found through the RUNPATH in
# /usr/lib/llvm-22/lib (symlinks from -dev packages without shlibs).

function(gather_debian_package_of file out)
  set(${out} "" PARENT_SCOPE)
  find_program(GATHER_DPKG_QUERY dpkg-query)
  if(NOT GATHER_DPKG_QUERY)
    return()
  endif()
  get_filename_component(real "${file}" REALPATH)
  execute_process(COMMAND ${GATHER_DPKG_QUERY} -S "${real}"
    OUTPUT_VARIABLE owner RESULT_VARIABLE status ERROR_QUIET)
  if(status EQUAL 0)
    string(REGEX REPLACE "[:,].*" "" owner "${owner}")  # "libomp5-19:amd64: ..."
    set(${out} "${owner}" PARENT_SCOPE)
  endif()
endfunction()

set(depends)
foreach(lib MLIR LLVM)
  get_target_property(configs ${lib} IMPORTED_CONFIGURATIONS)
  list(GET configs 0 config)
  get_target_property(location ${lib} IMPORTED_LOCATION_${config})
  gather_debian_package_of("${location}" owner)
  if(owner)
    list(APPEND depends "${owner} (>= 1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}.${LLVM_VERSION_PATCH})")
  endif()
endforeach()
gather_debian_package_of("${GATHER_LIBOMP}" libomp_package)
if(libomp_package)
  list(APPEND depends "${libomp_package}")
endif()
set(v "${LLVM_VERSION_MAJOR}")
list(APPEND depends "libmlir-${v}-dev" "mlir-${v}-tools" "llvm-${v}-dev"
  "llvm-${v}-linker-tools" "libomp-${v}-dev" "libonnx-dev" "libprotobuf-dev")
list(JOIN depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
message(STATUS "Debian package Depends: ${CPACK_DEBIAN_PACKAGE_DEPENDS}")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gather)
set(CPACK_PACKAGE_VENDOR "gather")
set(CPACK_PACKAGE_CONTACT "gather developers <gather@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "ONNX GatherElements as an MLIR dialect, pipeline, tools and libraries")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
find_program(GATHER_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GATHER_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
include(CPack)
