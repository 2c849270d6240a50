# The wheel build (BIRSIM_PYTHON_WHEEL, set by pyproject.toml): lib/Core and
# lib/Runtime, no LLVM, MLIR or test dependency, the runtime installed into
# the package folder as libbirsim_runtime.so.0 (a wheel holds no symlinks),
# where birsim/_runtime.py finds it. scikit-build-core installs the Python
# sources (python/birsim) itself.
set(BIRSIM_SOURCE_DIR ${PROJECT_SOURCE_DIR})
set(BIRSIM_BINARY_DIR ${PROJECT_BINARY_DIR})
include(cmake/BirsimTargets.cmake)
add_subdirectory(lib/Core)
add_subdirectory(lib/Runtime)
# The wheel needs nothing but libc, libm and libstdc++: libgcc's unwinder
# goes in statically.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_link_options(birsim_runtime PRIVATE -static-libgcc)
endif()
install(FILES $<TARGET_FILE:birsim_runtime> DESTINATION birsim
        RENAME libbirsim_runtime.so.0)
