# Shared by the full and the core-only build. Include directories of an
# installed target: the sources and generated
# headers in the build tree, `include/` of the prefix once installed.
function(birsim_public_includes target)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${BIRSIM_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${BIRSIM_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
endfunction()

set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
