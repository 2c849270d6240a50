# `cmake --install build --prefix P`: headers, libraries, tools, the mlir-opt
# plugin, the CMake package P/lib/cmake/birsim (also usable from the build
# tree as build/lib/cmake/birsim) and P/lib/pkgconfig/birsim-runtime.pc.
# Nothing installed names a build path: the package locates its prefix from
# its own directory, so a moved prefix keeps working.
include(CMakePackageConfigHelpers)

set(BIRSIM_CMAKE_DIR lib/cmake/birsim)

install(DIRECTORY ${BIRSIM_SOURCE_DIR}/include/birsim
                  ${BIRSIM_SOURCE_DIR}/include/birsim-c DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${BIRSIM_BINARY_DIR}/include/birsim DESTINATION include
  FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)

# The C runtime alone (no MLIR needed) and the MLIR libraries, as two export
# sets so that `find_package(Birsim COMPONENTS Runtime)` needs no MLIR.
install(TARGETS birsim_runtime EXPORT BirsimRuntimeTargets
  LIBRARY DESTINATION lib ARCHIVE DESTINATION lib RUNTIME DESTINATION bin)
install(TARGETS BirsimCore MLIRBirsimIR MLIRBirsimTransforms MLIRBirsimToLLVM MLIRToBirsim
                MLIRBirsim
  EXPORT BirsimTargets
  LIBRARY DESTINATION lib ARCHIVE DESTINATION lib RUNTIME DESTINATION bin)
# Installed tools find birsim's libraries beside them and MLIR's where MLIR
# lives (the Debian packages put libMLIR.so outside the default search path).
set_target_properties(birsim-opt birsim-lsp-server PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
install(TARGETS BirsimPlugin LIBRARY DESTINATION lib)
# libbirsim_compiler.so.0 (include/birsim-c; birsim.compiler loads it from
# the prefix's lib/).
set_target_properties(birsim_compiler PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS birsim_compiler EXPORT BirsimTargets
  LIBRARY DESTINATION lib ARCHIVE DESTINATION lib RUNTIME DESTINATION bin)
install(TARGETS birsim-opt birsim-lsp-server RUNTIME DESTINATION bin)

foreach(set BirsimRuntimeTargets BirsimTargets)
  install(EXPORT ${set} NAMESPACE Birsim:: DESTINATION ${BIRSIM_CMAKE_DIR})
  export(EXPORT ${set} NAMESPACE Birsim::
         FILE ${BIRSIM_BINARY_DIR}/${BIRSIM_CMAKE_DIR}/${set}.cmake)
endforeach()

# The MLIR this build used, as the fallback when the consumer names none.
set(BIRSIM_MLIR_DIR "${MLIR_DIR}")
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/BirsimConfig.cmake.in
  ${BIRSIM_BINARY_DIR}/${BIRSIM_CMAKE_DIR}/BirsimConfig.cmake
  INSTALL_DESTINATION ${BIRSIM_CMAKE_DIR})
write_basic_package_version_file(
  ${BIRSIM_BINARY_DIR}/${BIRSIM_CMAKE_DIR}/BirsimConfigVersion.cmake
  VERSION ${BIRSIM_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${BIRSIM_BINARY_DIR}/${BIRSIM_CMAKE_DIR}/BirsimConfig.cmake
  ${BIRSIM_BINARY_DIR}/${BIRSIM_CMAKE_DIR}/BirsimConfigVersion.cmake
  DESTINATION ${BIRSIM_CMAKE_DIR})

configure_file(${CMAKE_CURRENT_LIST_DIR}/birsim-runtime.pc.in
  ${BIRSIM_BINARY_DIR}/lib/pkgconfig/birsim-runtime.pc @ONLY)
install(FILES ${BIRSIM_BINARY_DIR}/lib/pkgconfig/birsim-runtime.pc
  DESTINATION lib/pkgconfig)
